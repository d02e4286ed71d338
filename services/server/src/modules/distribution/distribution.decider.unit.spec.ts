import { describe, it } from 'vitest';
import { deciderSpec } from '../../shared/event-sourcing/decider-specification.js';
import { ticketDistributionDecider } from './distribution.decider.js';
import type {
  DistributionVoided,
  LinkSettings,
  LinkUpdated,
  TicketDistributed,
  TicketDistributionEvent,
  LinkRecipientUnsubscribed,
  TicketRecalled,
} from './distribution.events.js';

const now = '2026-11-22T12:00:00.000Z';
const owned = { ownerId: 'u1', accountId: 'a1', isDuplicate: false };
const distribute = (distributionId: string, overrides: Record<string, unknown> = {}) =>
  ({
    type: 'Distribute',
    data: {
      ticketId: 't1',
      distributionId,
      userId: 'u1',
      ticket: owned,
      code: `code-${distributionId}`,
      expiresAt: null,
      maxClicks: 10,
      cost: 5,
      label: null,
      pinHash: null,
      recipient: null,
      now,
      ...overrides,
    },
  }) as const;
const distributed = (distributionId: string): TicketDistributed => ({
  type: 'TicketDistributed',
  data: {
    ticketId: 't1',
    distributionId,
    userId: 'u1',
    accountId: 'a1',
    code: `code-${distributionId}`,
    expiresAt: null,
    maxClicks: 10,
    cost: 5,
    at: now,
  },
});
const recalled = (distributionId: string, userId = 'u1'): TicketRecalled => ({
  type: 'TicketRecalled',
  data: { ticketId: 't1', distributionId, userId, at: now },
});
const recall = (distributionId: string, userId = 'u1') =>
  ({ type: 'Recall', data: { ticketId: 't1', distributionId, userId, now } }) as const;
const why = { code: 'LINK_NOT_MADE', reason: 'The link could not be made; its credits were given back' };
const voidLink = (distributionId: string) =>
  ({ type: 'Void', data: { ticketId: 't1', distributionId, userId: 'u1', reference: 'cmd-1', ...why, now } }) as const;
const voided = (distributionId: string): DistributionVoided => ({
  type: 'DistributionVoided',
  data: { ticketId: 't1', distributionId, userId: 'u1', reference: 'cmd-1', ...why, at: now },
});

const update = (changes: Partial<LinkSettings>, clicks = 0, distributionId = 'd1', userId = 'u1') =>
  ({ type: 'Update', data: { ticketId: 't1', distributionId, userId, changes, clicks, now } }) as const;
const asMade: LinkSettings = { expiresAt: null, maxClicks: 10, label: null, pinHash: null, recipient: null };
const updated = (
  settings: Partial<LinkSettings>,
  previous: Partial<LinkSettings>,
  distributionId = 'd1',
): LinkUpdated => ({
  type: 'LinkUpdated',
  data: { ticketId: 't1', distributionId, userId: 'u1', settings: { ...asMade, ...settings }, previous, at: now },
});
const later = '2026-12-24T18:00:00.000Z';

describe('ticket distribution decider', () => {
  const spec = deciderSpec(ticketDistributionDecider);

  it("gives the owner's ticket a link", () => {
    spec
      .given([])
      .when(distribute('d1'))
      .then([distributed('d1')]);
  });

  it('refuses a second live link, and allows a new one after a recall', () => {
    spec
      .given([distributed('d1')])
      .when(distribute('d2'))
      .thenThrows({ code: 'ALREADY_DISTRIBUTED' });
    spec
      .given([distributed('d1'), recalled('d1')])
      .when(distribute('d2'))
      .then([distributed('d2')]);
  });

  it("refuses another user's ticket and an unknown one alike, and a duplicate", () => {
    spec
      .given([])
      .when(distribute('d1', { ticket: { ...owned, ownerId: 'u2' } }))
      .thenThrows({ code: 'TICKET_NOT_FOUND' });
    spec
      .given([])
      .when(distribute('d1', { ticket: null }))
      .thenThrows({ code: 'TICKET_NOT_FOUND' });
    spec
      .given([])
      .when(distribute('d1', { ticket: { ...owned, isDuplicate: true } }))
      .thenThrows({ code: 'DUPLICATE_TICKET' });
  });

  it('recalls the live link for its owner only; a second recall says it was recalled', () => {
    spec
      .given([distributed('d1')])
      .when(recall('d1'))
      .then([recalled('d1')]);
    spec
      .given([distributed('d1')])
      .when(recall('d1', 'u2'))
      .thenThrows({ code: 'DISTRIBUTION_NOT_FOUND' });
    spec
      .given([distributed('d1'), recalled('d1')])
      .when(recall('d1'))
      .thenThrows({ code: 'ALREADY_RECALLED' });
    // Another user's recalled link is not theirs to know of: not found, as an unknown one.
    spec
      .given([distributed('d1'), recalled('d1')])
      .when(recall('d1', 'u2'))
      .thenThrows({ code: 'DISTRIBUTION_NOT_FOUND' });
    spec
      .given([distributed('d1')])
      .when(recall('d9'))
      .thenThrows({ code: 'DISTRIBUTION_NOT_FOUND' });
  });

  it('voids a link paid for and not made, once', () => {
    spec
      .given([])
      .when(voidLink('d1'))
      .then([voided('d1')]);
    spec
      .given([distributed('d0'), voided('d1')])
      .when(voidLink('d1'))
      .then([]);
  });

  it('never voids a link that was made, live or recalled: it stays paid for', () => {
    spec
      .given([distributed('d1')])
      .when(voidLink('d1'))
      .then([]);
    spec
      .given([distributed('d1'), recalled('d1')])
      .when(voidLink('d1'))
      .then([]);
  });

  it('never makes a voided link (its credits came back), and voiding one leaves the ticket free', () => {
    spec
      .given([voided('d1')])
      .when(distribute('d1'))
      .thenThrows({ code: 'LINK_NOT_MADE' });
    spec
      .given([voided('d1')])
      .when(distribute('d2'))
      .then([distributed('d2')]);
    // Another request's live link: the void of this one changes nothing about it.
    spec
      .given([distributed('d2'), voided('d1')])
      .when(recall('d2'))
      .then([recalled('d2')]);
  });

  it('keeps a label given when the link is made', () => {
    spec
      .given([])
      .when(distribute('d1', { label: 'for Sam' }))
      .then([{ ...distributed('d1'), data: { ...distributed('d1').data, label: 'for Sam' } }]);
  });

  describe('editing a live link', () => {
    it('changes what is given and records what it was', () => {
      spec
        .given([distributed('d1')])
        .when(update({ expiresAt: later, maxClicks: 20, label: 'for Sam' }, 3))
        .then([
          updated(
            { expiresAt: later, maxClicks: 20, label: 'for Sam' },
            { expiresAt: null, maxClicks: 10, label: null },
          ),
        ]);
      // Only the fields given: the others stay as they are, and are not said to have changed.
      spec
        .given([distributed('d1'), updated({ label: 'for Sam' }, { label: null })])
        .when(update({ maxClicks: null }))
        .then([updated({ label: 'for Sam', maxClicks: null }, { maxClicks: 10 })]);
    });

    it('removes the expiry, the limit and the label with null', () => {
      spec
        .given([distributed('d1'), updated({ expiresAt: later, label: 'x' }, { expiresAt: null, label: null })])
        .when(update({ expiresAt: null, maxClicks: null, label: null }))
        .then([
          updated({ expiresAt: null, maxClicks: null, label: null }, { expiresAt: later, maxClicks: 10, label: 'x' }),
        ]);
    });

    it('never lowers a limit below the clicks counted; to them exactly is allowed', () => {
      spec
        .given([distributed('d1')])
        .when(update({ maxClicks: 4 }, 5))
        .thenThrows({
          code: 'LIMIT_BELOW_CLICKS',
          message: 'Max clicks cannot be lower than the 5 clicks already counted',
        });
      spec
        .given([distributed('d1')])
        .when(update({ maxClicks: 5 }, 5))
        .then([updated({ maxClicks: 5 }, { maxClicks: 10 })]);
      // Unlimited is always allowed, whatever the count; a label alone is not a limit's business.
      spec
        .given([distributed('d1')])
        .when(update({ maxClicks: null, label: 'x' }, 50))
        .then([updated({ maxClicks: null, label: 'x' }, { maxClicks: 10, label: null })]);
      spec
        .given([distributed('d1')])
        .when(update({ label: 'x' }, 50))
        .then([updated({ label: 'x' }, { label: null })]);
    });

    it('records nothing when nothing would change (an expiry is the same instant whatever its text)', () => {
      spec
        .given([distributed('d1'), updated({ expiresAt: later }, { expiresAt: null })])
        .when(update({ expiresAt: '2026-12-24T19:00:00+01:00', maxClicks: 10 }))
        .then([]);
    });

    it("refuses another user's link, an unknown one, and a recalled one", () => {
      spec
        .given([distributed('d1')])
        .when(update({ label: 'x' }, 0, 'd1', 'u2'))
        .thenThrows({ code: 'DISTRIBUTION_NOT_FOUND' });
      spec
        .given([distributed('d1')])
        .when(update({ label: 'x' }, 0, 'd9'))
        .thenThrows({ code: 'DISTRIBUTION_NOT_FOUND' });
      spec
        .given([distributed('d1'), recalled('d1')])
        .when(update({ label: 'x' }))
        .thenThrows({ code: 'ALREADY_RECALLED' });
      spec
        .given([distributed('d1'), recalled('d1')])
        .when(update({ label: 'x' }, 0, 'd1', 'u2'))
        .thenThrows({ code: 'DISTRIBUTION_NOT_FOUND' });
      // The ticket's next link is another link: an edit of the recalled one is still refused as recalled.
      spec
        .given([distributed('d1'), recalled('d1'), distributed('d2')])
        .when(update({ label: 'x' }))
        .thenThrows({ code: 'ALREADY_RECALLED' });
    });

    it('edits the next link from its own settings, not the recalled one’s', () => {
      spec
        .given([distributed('d1'), updated({ label: 'old' }, { label: null }), recalled('d1'), distributed('d2')])
        .when(update({ maxClicks: 3 }, 0, 'd2'))
        .then([updated({ maxClicks: 3 }, { maxClicks: 10 }, 'd2')]);
    });
  });

  describe('a PIN, and telling its owner of wrong ones (nothing locks)', () => {
    const since = '2026-11-22T11:58:00.000Z';
    const later = (minutes: number) => new Date(Date.parse(now) + minutes * 60_000).toISOString();
    const report = (pinHash: string, at = now, distributionId = 'd1') =>
      ({
        type: 'ReportPinGuesses',
        data: { ticketId: 't1', distributionId, pinHash, failures: 5, since, now: at },
      }) as const;
    const guessed = (pinHash: string, at = now): TicketDistributionEvent => ({
      type: 'LinkPinGuessed',
      data: { ticketId: 't1', distributionId: 'd1', userId: 'u1', pinHash, failures: 5, since, at },
    });
    /** As recorded before wrong PINs stopped locking links. */
    const locked = (pinHash: string): TicketDistributionEvent => ({
      type: 'LinkPinLocked',
      data: { ticketId: 't1', distributionId: 'd1', userId: 'u1', pinHash, failures: 10, at: now },
    });
    const withPin = { ...distributed('d1'), data: { ...distributed('d1').data, pinHash: 'h1' } };

    it('keeps the hash of the PIN a link is made with', () => {
      spec
        .given([])
        .when(distribute('d1', { pinHash: 'h1' }))
        .then([withPin]);
    });

    it('tells the owner of wrong PINs on the link with that very PIN; another PIN or link, or none, is not told', () => {
      spec
        .given([withPin])
        .when(report('h1'))
        .then([guessed('h1')]);
      spec
        .given([withPin, updated({ pinHash: 'h2' }, { pinHash: 'h1' })])
        .when(report('h1'))
        .then([]);
      spec
        .given([withPin])
        .when(report('h1', now, 'd9'))
        .then([]);
      spec
        .given([distributed('d1')])
        .when(report('h1'))
        .then([]);
      spec
        .given([withPin, recalled('d1')])
        .when(report('h1'))
        .then([]);
    });

    it('tells once per 15 minutes: a second burst within the window is not told again, one after it is', () => {
      spec
        .given([withPin, guessed('h1')])
        .when(report('h1', later(14)))
        .then([]);
      spec
        .given([withPin, guessed('h1')])
        .when(report('h1', later(15)))
        .then([guessed('h1', later(15))]);
    });

    it('reads a lock recorded before as nothing: the link still takes claims, edits and tells of wrong PINs', () => {
      spec
        .given([withPin, locked('h1')])
        .when(report('h1'))
        .then([guessed('h1')]);
      spec
        .given([withPin, locked('h1')])
        .when(update({ pinHash: 'h2' }))
        .then([updated({ pinHash: 'h2' }, { pinHash: 'h1' })]);
    });

    it('reads an edit recorded before links had PINs as leaving the PIN as it was', () => {
      const old: LinkUpdated = {
        type: 'LinkUpdated',
        data: {
          ticketId: 't1',
          distributionId: 'd1',
          userId: 'u1',
          settings: { expiresAt: null, maxClicks: 20, label: null } as LinkSettings,
          previous: { maxClicks: 10 },
          at: now,
        },
      };
      spec
        .given([withPin, old])
        .when(report('h1'))
        .then([guessed('h1')]);
    });
  });

  describe('telling the owner a link expires soon', () => {
    const soon = '2026-11-23T08:00:00.000Z'; // 20 hours after now
    const expiring = { ...distributed('d1'), data: { ...distributed('d1').data, expiresAt: soon } };
    const warn = (expiresAt = soon, distributionId = 'd1', at = now) =>
      ({ type: 'WarnExpiry', data: { ticketId: 't1', distributionId, expiresAt, now: at } }) as const;
    const near = (expiresAt = soon, at = now): TicketDistributionEvent => ({
      type: 'LinkExpiryNear',
      data: { ticketId: 't1', distributionId: 'd1', userId: 'u1', expiresAt, at },
    });

    it('tells once per expiry, within a day of it', () => {
      spec.given([expiring]).when(warn()).then([near()]);
      spec.given([expiring, near()]).when(warn()).then([]);
      // The same instant written otherwise is the same expiry.
      spec.given([expiring, near()]).when(warn('2026-11-23T09:00:00.000+01:00')).then([]);
    });

    it('tells again of an expiry moved (and not of one the job read before it moved)', () => {
      const moved = '2026-11-23T10:00:00.000Z';
      const edit = updated({ expiresAt: moved }, { expiresAt: soon });
      spec
        .given([expiring, near(), edit])
        .when(warn(moved))
        .then([near(moved)]);
      spec.given([expiring, edit]).when(warn(soon)).then([]);
    });

    it('says nothing of a link further off, past, without an expiry, recalled, or another link', () => {
      spec
        .given([expiring])
        .when(warn(soon, 'd1', '2026-11-22T07:59:00.000Z'))
        .then([]);
      spec
        .given([expiring])
        .when(warn(soon, 'd1', soon))
        .then([]);
      spec
        .given([distributed('d1')])
        .when(warn())
        .then([]);
      spec
        .given([expiring, recalled('d1')])
        .when(warn())
        .then([]);
      spec.given([expiring]).when(warn(soon, 'd9')).then([]);
    });

    const after = '2026-11-23T08:00:01.000Z';
    const markExpired = (expiresAt = soon, distributionId = 'd1', at = after) =>
      ({ type: 'MarkExpired', data: { ticketId: 't1', distributionId, expiresAt, now: at } }) as const;
    const expired = (expiresAt = soon, at = after): TicketDistributionEvent => ({
      type: 'LinkExpired',
      data: { ticketId: 't1', distributionId: 'd1', userId: 'u1', expiresAt, at },
    });

    it('records a passed expiry once, and again only for an expiry moved and passed again', () => {
      spec.given([expiring]).when(markExpired()).then([expired()]);
      spec.given([expiring, near(), expired()]).when(markExpired()).then([]);
      const moved = '2026-11-24T08:00:00.000Z';
      const edit = updated({ expiresAt: moved }, { expiresAt: soon });
      spec
        .given([expiring, expired(), edit])
        .when(markExpired(moved, 'd1', '2026-11-24T09:00:00.000Z'))
        .then([expired(moved, '2026-11-24T09:00:00.000Z')]);
      // What the job read before the edit is not the link's expiry any more.
      spec.given([expiring, edit]).when(markExpired(soon)).then([]);
    });

    it('records nothing of an expiry not passed, none, a recalled link, or another link', () => {
      spec
        .given([expiring])
        .when(markExpired(soon, 'd1', now))
        .then([]);
      spec
        .given([distributed('d1')])
        .when(markExpired())
        .then([]);
      spec
        .given([expiring, recalled('d1')])
        .when(markExpired())
        .then([]);
      spec.given([expiring]).when(markExpired(soon, 'd9')).then([]);
    });

    it('keeps the expiry it recorded out of the settings an edit records', () => {
      const edit = updated({ label: 'For Sam' }, { label: null });
      spec
        .given([expiring, expired()])
        .when({
          type: 'Update',
          data: { ticketId: 't1', distributionId: 'd1', userId: 'u1', changes: { label: 'For Sam' }, clicks: 0, now },
        })
        .then([{ ...edit, data: { ...edit.data, settings: { ...edit.data.settings, expiresAt: soon } } }]);
    });
  });

  describe('a named recipient, and their unsubscribe', () => {
    const sam = { name: 'Sam', email: 'sam@example.com' };
    const withSam: TicketDistributed = { ...distributed('d1'), data: { ...distributed('d1').data, recipient: sam } };
    const unsubscribed = (email = sam.email, distributionId = 'd1'): LinkRecipientUnsubscribed => ({
      type: 'LinkRecipientUnsubscribed',
      data: { ticketId: 't1', distributionId, userId: 'u1', email, at: now },
    });
    const unsubscribe = (email = sam.email, distributionId = 'd1') =>
      ({ type: 'UnsubscribeRecipient', data: { ticketId: 't1', distributionId, email, now } }) as const;

    it('keeps the recipient a link is made for; none is not recorded', () => {
      spec
        .given([])
        .when(distribute('d1', { recipient: sam }))
        .then([withSam]);
      spec
        .given([])
        .when(distribute('d1', { recipient: null }))
        .then([distributed('d1')]);
    });

    it('changes, removes and names a recipient by edit, recording who it was; the same one again changes nothing', () => {
      const alex = { name: 'Alex', email: 'alex@example.com' };
      spec
        .given([withSam])
        .when(update({ recipient: alex }))
        .then([updated({ recipient: alex }, { recipient: sam })]);
      spec
        .given([withSam])
        .when(update({ recipient: null }))
        .then([updated({ recipient: null }, { recipient: sam })]);
      spec
        .given([distributed('d1')])
        .when(update({ recipient: sam }))
        .then([updated({ recipient: sam }, { recipient: null })]);
      spec
        .given([withSam])
        .when(update({ recipient: { ...sam } }))
        .then([]);
      // An edit of something else keeps the recipient among the settings it records.
      spec
        .given([withSam])
        .when(update({ label: 'for Sam' }))
        .then([updated({ label: 'for Sam', recipient: sam }, { label: null })]);
    });

    it('reads an edit recorded before links named recipients as leaving the recipient as it was', () => {
      const { recipient: _none, ...old } = asMade;
      const before: LinkUpdated = {
        type: 'LinkUpdated',
        data: {
          ticketId: 't1',
          distributionId: 'd1',
          userId: 'u1',
          settings: { ...old, label: 'x' },
          previous: { label: null },
          at: now,
        },
      };
      spec
        .given([withSam, before])
        .when(update({ recipient: null }))
        .then([updated({ label: 'x', recipient: null }, { recipient: sam })]);
    });

    it('records an unsubscribe of a link and address once, for its owner, a recalled link too', () => {
      spec.given([withSam]).when(unsubscribe()).then([unsubscribed()]);
      spec.given([withSam, unsubscribed()]).when(unsubscribe()).then([]);
      // Another address of the same link is its own.
      spec
        .given([withSam, unsubscribed()])
        .when(unsubscribe('alex@example.com'))
        .then([unsubscribed('alex@example.com')]);
      spec
        .given([withSam, recalled('d1')])
        .when(unsubscribe())
        .then([unsubscribed()]);
    });

    it('refuses an unsubscribe of a link the ticket never had', () => {
      spec.given([withSam]).when(unsubscribe(sam.email, 'd2')).thenThrows({ code: 'DISTRIBUTION_NOT_FOUND' });
    });
  });
});
