import {
  type TicketsSyncedData,
  WEBHOOK_TICKETS_PER_DELIVERY,
  type WebhookPayload,
  webhookEventSchemas,
} from '@seatlink/contracts';
import { describe, expect, it } from 'vitest';
import type { RecordedEvent } from '../../infra/event-store/event-store.port.js';
import { ticketBatchesOf, ticketChangeOf, webhookEventsOf } from './webhook-events.js';

const at = '2026-11-27T12:00:00.000Z';
const recorded = (type: string, data: Record<string, unknown>, id = 'a0c3f1e2-5b6d-4e7f-8a9b-0c1d2e3f4a5b') =>
  ({
    id,
    streamId: 's',
    revision: 0,
    position: '1',
    type,
    data,
    metadata: {},
    createdAt: new Date(at),
  }) as RecordedEvent;
const bodies = (
  event: RecordedEvent,
  limits = new Map<string, number | null>(),
  recipients = new Map<string, { name: string | null; email: string | null }>(),
) =>
  webhookEventsOf(event, limits, recipients).map((e) => ({
    ...e,
    payload: JSON.parse(e.payload) as Record<string, unknown>,
  }));
const link = { distributionId: 'd1', ticketId: 't1', userId: 'u1' };

describe('webhook events of recorded events', () => {
  it('tells of a claim, and of the limit when the claim reaches it', () => {
    const [claimed, ...more] = bodies(recorded('LinkClicked', { ...link, n: 1, at }), new Map([['d1', 2]]));
    expect(more).toEqual([]);
    expect(claimed).toMatchObject({
      type: 'link.claimed',
      userId: 'u1',
      orderKey: 'link:d1',
      at,
      payload: {
        id: claimed!.id,
        type: 'link.claimed',
        created_at: at,
        data: {
          distribution_id: 'd1',
          link_id: 'd1',
          ticket_id: 't1',
          claims: 1,
          max_clicks: 2,
          claimed_by: { name: null, device: null },
        },
      },
    });
    // Who claimed, as the claim's event recorded it.
    const named = bodies(recorded('LinkClicked', { ...link, n: 1, at, name: 'Sam', device: 'iPhone' }));
    expect(named[0]!.payload.data).toMatchObject({ claimed_by: { name: 'Sam', device: 'iPhone' } });
    const second = bodies(recorded('LinkClicked', { ...link, n: 2, at }), new Map([['d1', 2]]));
    expect(second.map((e) => [e.type, e.orderKey])).toEqual([
      ['link.claimed', 'link:d1'],
      ['link.limit_reached', 'link:d1'],
    ]);
    expect(second[1]!.payload.data).toEqual({
      distribution_id: 'd1',
      link_id: 'd1',
      ticket_id: 't1',
      recipient: null,
      claims: 2,
      max_clicks: 2,
      reached_at: at,
    });
    // Two events of one recorded event, and the same ids every time (a retried batch, every endpoint).
    expect(second[0]!.id).not.toBe(second[1]!.id);
    expect(bodies(recorded('LinkClicked', { ...link, n: 2, at }), new Map([['d1', 2]])).map((e) => e.id)).toEqual(
      second.map((e) => e.id),
    );
    // No limit, or one not known: no limit_reached.
    expect(bodies(recorded('LinkClicked', { ...link, n: 5, at })).map((e) => e.type)).toEqual(['link.claimed']);
  });

  it('tells of a recall and an expiry on the link, and of tickets a sync changed on the ticket', () => {
    expect(bodies(recorded('TicketRecalled', { ...link, at }))[0]).toMatchObject({
      type: 'link.recalled',
      orderKey: 'link:d1',
      payload: { data: { distribution_id: 'd1', link_id: 'd1', ticket_id: 't1', recalled_at: at } },
    });
    // Whom the link is for, when it names someone: on every link event.
    const sam = { name: 'Sam', email: 'sam@example.com' };
    for (const type of ['TicketRecalled', 'LinkClicked', 'LinkExpired'] as const) {
      const made = bodies(recorded(type, { ...link, n: 1, expiresAt: at, at }), new Map(), new Map([['d1', sam]]));
      expect(made[0]!.payload.data, type).toMatchObject({ distribution_id: 'd1', recipient: sam });
      expect(bodies(recorded(type, { ...link, n: 1, expiresAt: at, at }))[0]!.payload.data, type).toMatchObject({
        recipient: null,
      });
    }
    expect(bodies(recorded('LinkExpired', { ...link, expiresAt: at, at }))[0]).toMatchObject({
      type: 'link.expired',
      orderKey: 'link:d1',
      payload: { data: { distribution_id: 'd1', link_id: 'd1', ticket_id: 't1', expires_at: at } },
    });
    // Wrong PINs tried again and again: their count and since when, never the PIN's hash.
    const guessed = bodies(recorded('LinkPinGuessed', { ...link, pinHash: '$argon2id$x', failures: 5, since: at, at }));
    expect(guessed).toHaveLength(1);
    expect(guessed[0]).toMatchObject({
      type: 'link.pin_guessed',
      orderKey: 'link:d1',
      payload: { data: { distribution_id: 'd1', ticket_id: 't1', failures: 5, since: at, guessed_at: at } },
    });
    expect(JSON.stringify(guessed[0]!.payload)).not.toContain('argon2');
    const pass = {
      title: 'Match \u202Eday',
      subtitle: null,
      venueName: 'Quayside',
      section: '1',
      row: 'A',
      seat: '7',
      nextGame: null,
      nextGameDate: null,
      passId: 'secret-pass-id',
      barcode: 'secret-barcode',
    };
    const added = bodies(recorded('TicketDiscovered', { accountId: 'a1', userId: 'u1', ticketId: 't1', pass, at }))[0]!;
    expect(added).toMatchObject({ type: 'ticket.synced', orderKey: 'ticket:t1' });
    expect(added.payload.data).toEqual({
      ticket_id: 't1',
      account_id: 'a1',
      change: 'added',
      ticket: {
        title: 'Match \u202Eday',
        subtitle: null,
        venue_name: 'Quayside',
        section: '1',
        row: 'A',
        seat: '7',
        next_game: null,
        next_game_date: null,
      },
    });
    // The barcode is what gets a recipient in: it is never sent.
    expect(JSON.stringify(added.payload)).not.toContain('secret-barcode');
    expect(
      bodies(recorded('TicketGone', { accountId: 'a1', userId: 'u1', ticketId: 't1', at }))[0]!.payload.data,
    ).toMatchObject({ change: 'removed', ticket: null });
  });

  it('tells of every change of the balance, with what it is now, and of nothing else', () => {
    const u = { userId: 'u1', at };
    const change = (type: string, data: Record<string, unknown>) => bodies(recorded(type, { ...u, ...data }))[0];
    expect(change('CreditsSet', { credits: 50, previousBalance: 20 })?.payload.data).toEqual({
      balance: 50,
      change: 30,
      reason: 'set_by_admin',
    });
    expect(change('CreditsDebited', { amount: 5, balanceAfter: 45, reference: 'r' })?.payload.data).toEqual({
      balance: 45,
      change: -5,
      reason: 'links_paid',
    });
    expect(change('CreditsRefunded', { amount: 5, balanceAfter: 50, reference: 'r' })?.payload.data).toMatchObject({
      change: 5,
      reason: 'links_not_made',
    });
    expect(change('CreditsPurchased', { amount: 10, balanceAfter: 60, paymentIntentId: 'pi' })?.orderKey).toBe(
      'credits:u1',
    );
    expect(change('CreditsReversed', { amount: 10, balanceAfter: 50, reason: 'refund' })?.payload.data).toEqual({
      balance: 50,
      change: -10,
      reason: 'refund',
    });
    expect(bodies(recorded('LinkPaymentsCancelled', { ...u, reference: 'r', distributionIds: [] }))).toEqual([]);
  });

  it('builds every body as the API document describes it (its webhooks section), with nothing it does not name', () => {
    const ids = {
      distributionId: '3f1e2d4c-5b6a-4978-8a6b-5c4d3e2f1a09',
      ticketId: '0e1d2c3b-4a59-4867-9f8e-7d6c5b4a3928',
      userId: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
    };
    const accountId = '5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a';
    const pass = {
      title: 'Arsenal v Spurs \u0000 \u202e',
      subtitle: null,
      venueName: 'Emirates',
      section: '12',
      row: null,
      seat: '7',
      nextGame: null,
      nextGameDate: null,
    };
    const made = [
      ...bodies(recorded('LinkClicked', { ...ids, n: 2, at }), new Map([[ids.distributionId, 2]])),
      ...bodies(recorded('LinkClicked', { ...ids, n: 9, at })),
      ...bodies(recorded('TicketRecalled', { ...ids, at })),
      ...bodies(recorded('LinkExpired', { ...ids, expiresAt: at, at })),
      ...bodies(recorded('LinkPinGuessed', { ...ids, pinHash: '$argon2id$x', failures: 5, since: at, at })),
      ...bodies(recorded('TicketDiscovered', { ...ids, accountId, pass, at })),
      ...bodies(recorded('TicketChanged', { ...ids, accountId, pass, at })),
      ...bodies(recorded('TicketGone', { ...ids, accountId, at })),
      ...bodies(recorded('CreditsSet', { ...ids, credits: 3, previousBalance: 0, at })),
      ...bodies(recorded('CreditsReversed', { ...ids, amount: 1, balanceAfter: 2, reason: 'dispute_lost', at })),
      ...ticketBatchesOf({
        trigger: '6c5b4a39-2817-4f6e-9d5c-4b3a29180f7e',
        endpointId: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
        userId: ids.userId,
        accountId,
        at,
        finished: false,
        entries: ['TicketDiscovered', 'TicketGone'].map((type) =>
          JSON.stringify(ticketChangeOf({ type, data: { ...ids, accountId, pass, at } })!.entry),
        ),
      }).map((e) => ({ ...e, payload: JSON.parse(e.payload) as Record<string, unknown> })),
    ];
    const types = new Set<string>();
    for (const event of made) {
      const described = webhookEventSchemas[event.type];
      // Parsing drops what the schema does not name: equal means every field is described, and right.
      expect(described.parse(event.payload)).toEqual(event.payload);
      types.add(event.type);
    }
    expect([...types].sort()).toEqual(
      Object.keys(webhookEventSchemas)
        .filter((t) => t !== 'webhook.test')
        .sort(),
    );
    // The schemas refuse what is not so: a payload of another type, or one without its link's id.
    const claimed = made[0]!.payload;
    expect(webhookEventSchemas['link.recalled'].safeParse(claimed).success).toBe(false);
    const { distribution_id: _gone, ...data } = claimed.data as Record<string, unknown>;
    expect(webhookEventSchemas['link.claimed'].safeParse({ ...claimed, data }).success).toBe(false);
  });
});

describe('tickets.synced: a sync’s ticket changes in batches', () => {
  const pass = (n: number, title = `Match ${n}`) => ({
    passId: `p${n}`,
    barcode: `secret-barcode-${n}`,
    title,
    subtitle: null,
    venueName: 'Quayside',
    section: '1',
    row: 'A',
    seat: String(n),
    nextGame: null,
    nextGameDate: null,
  });
  const entryOf = (type: string, n: number, title?: string) => {
    const data = {
      accountId: 'a1',
      userId: 'u1',
      ticketId: `t${n}`,
      at,
      ...(type === 'TicketGone' ? {} : { pass: pass(n, title) }),
    };
    return JSON.stringify(ticketChangeOf({ type, data })!.entry);
  };
  const batch = (entries: string[], over: Partial<Parameters<typeof ticketBatchesOf>[0]> = {}) =>
    ticketBatchesOf({
      trigger: 'b1f0c2d3-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
      endpointId: 'e1',
      userId: 'u1',
      accountId: 'a1',
      at,
      finished: true,
      entries,
      ...over,
    });
  const dataOf = (e: { payload: string }) => (JSON.parse(e.payload) as { data: TicketsSyncedData }).data;

  it('tells each ticket with what happened to it, in the fields of ticket.synced, and never its barcode', () => {
    expect(ticketChangeOf({ type: 'LinkClicked', data: { ...link, n: 1, at } })).toBeNull();
    const [only, ...more] = batch([
      entryOf('TicketDiscovered', 1),
      entryOf('TicketChanged', 2),
      entryOf('TicketGone', 3),
    ]);
    expect(more).toEqual([]);
    expect(only).toMatchObject({ type: 'tickets.synced', orderKey: 'tickets:a1', userId: 'u1', at });
    const body = JSON.parse(only!.payload) as WebhookPayload<TicketsSyncedData>;
    expect(body).toMatchObject({ id: only!.id, type: 'tickets.synced', created_at: at });
    expect(body.data).toMatchObject({ account_id: 'a1', part: 1, parts: 1, sync_finished: true });
    expect(body.data.tickets).toEqual([
      {
        ticket_id: 't1',
        change: 'added',
        ticket: {
          title: 'Match 1',
          subtitle: null,
          venue_name: 'Quayside',
          section: '1',
          row: 'A',
          seat: '1',
          next_game: null,
          next_game_date: null,
        },
      },
      { ticket_id: 't2', change: 'changed', ticket: { ...body.data.tickets[0]!.ticket!, title: 'Match 2', seat: '2' } },
      { ticket_id: 't3', change: 'removed', ticket: null },
    ]);
    expect(only!.payload).not.toContain('secret-barcode');
  });

  it(`splits ${WEBHOOK_TICKETS_PER_DELIVERY * 20} changes into 20 parts of ${WEBHOOK_TICKETS_PER_DELIVERY}, each ticket once, with the same ids every time`, () => {
    expect(WEBHOOK_TICKETS_PER_DELIVERY).toBe(500);
    const entries = Array.from({ length: 10_000 }, (_, i) => entryOf('TicketDiscovered', i));
    const made = batch(entries);
    expect(made).toHaveLength(20);
    const data = made.map(dataOf);
    expect(data.map((d) => d.part)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(new Set(data.map((d) => d.parts))).toEqual(new Set([20]));
    expect(new Set(data.map((d) => d.sync_id)).size).toBe(1);
    expect(data.every((d) => d.tickets.length === 500)).toBe(true);
    const ids = data.flatMap((d) => d.tickets.map((t) => t.ticket_id));
    expect(ids).toEqual(entries.map((_, i) => `t${i}`));
    // Made again (a batch applied again): the same events; another endpoint: other events of the same sync.
    expect(batch(entries).map((e) => e.id)).toEqual(made.map((e) => e.id));
    const other = batch(entries, { endpointId: 'e2' });
    expect(other.some((e) => made.some((m) => m.id === e.id))).toBe(false);
    expect(dataOf(other[0]!).sync_id).toBe(data[0]!.sync_id);
    // One more ticket: a last part of one; none: no delivery.
    expect(
      batch([...entries, entryOf('TicketGone', 1)])
        .map((e) => dataOf(e).tickets.length)
        .slice(-2),
    ).toEqual([500, 1]);
    expect(batch([])).toEqual([]);
    expect(dataOf(batch(entries.slice(0, 1), { finished: false })[0]!).sync_finished).toBe(false);
  });

  it('is valid JSON whatever bytes a ticket’s name holds: NUL, bidi controls, lone surrogates, very long', () => {
    const names = [
      'A\u0000B',
      '\u202Eevil\u202C\u2066x\u2069',
      'half \uD800 pair \uDFFF',
      'x'.repeat(100_000),
      '"},{]',
    ];
    const made = batch(names.map((n, i) => entryOf('TicketDiscovered', i, n)));
    const text = made[0]!.payload;
    expect(text).not.toContain('\u0000');
    const got = dataOf(made[0]!).tickets.map((t) => t.ticket!.title);
    expect(got).toEqual(names);
    // Lone surrogates are escaped (\ud800), so the body is well-formed UTF-8 on the wire.
    expect(text).toContain('\\ud800');
    expect(Buffer.from(text, 'utf8').toString('utf8')).toBe(text);
  });
});
