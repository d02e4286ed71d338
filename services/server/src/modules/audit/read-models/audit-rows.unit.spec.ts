import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { RecordedEvent } from '../../../infra/event-store/event-store.port.js';
import { auditNamesOf, auditRowOf, claimRowsOf, claimsEntryId } from './audit-rows.js';

const USER = '11111111-1111-4111-8111-111111111111';
const ADMIN = '22222222-2222-4222-8222-222222222222';
const LINK = '33333333-3333-4333-8333-333333333333';
const TICKET = '44444444-4444-4444-8444-444444444444';
let n = 0;

function recorded(
  type: string,
  data: Record<string, unknown>,
  metadata: Record<string, unknown> = {},
  at = '2026-11-22T14:05:00.000Z',
): RecordedEvent {
  n += 1;
  return {
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    streamId: 's',
    revision: 0,
    position: String(n),
    type,
    data,
    metadata,
    createdAt: new Date(at),
  };
}

describe('auditRowOf', () => {
  it('makes a credits set an entry of the user’s money, by the admin, from what to what, with the reason', () => {
    const row = auditRowOf(
      recorded(
        'CreditsSet',
        { userId: USER, credits: 75, previousBalance: 50, setBy: ADMIN, reason: 'Goodwill', at: 'x' },
        { actorId: ADMIN, ip: '10.0.0.1' },
      ),
    );
    expect(row).toMatchObject({
      userId: USER,
      kind: 'money',
      eventType: 'CREDITS_SET',
      status: 'SUCCESS',
      actorId: ADMIN,
      ipAddress: '10.0.0.1',
      eventData: { status: 'SUCCESS', from: 50, to: 75, reason: 'Goodwill', ticket_id: null, distribution_id: null },
    });
  });

  it('reads a credits set recorded before reasons were asked for: no reason', () => {
    const row = auditRowOf(recorded('CreditsSet', { userId: USER, credits: 5, previousBalance: 0, setBy: ADMIN }));
    expect(row?.eventData).toMatchObject({ from: 0, to: 5, reason: null });
  });

  it('keeps who did it only when it was someone else than the user', () => {
    const own = auditRowOf(recorded('PasswordResetRequested', { userId: USER, by: USER }, { actorId: USER }));
    expect(own).toMatchObject({ eventType: 'PASSWORD_RESET_REQUESTED', kind: 'access', actorId: null });
    const banned = auditRowOf(recorded('UserBanned', { userId: USER, by: ADMIN }, { actorId: ADMIN }));
    expect(banned).toMatchObject({ eventType: 'USER_BANNED', kind: 'access', actorId: ADMIN });
    // Seeded credits were set by no user.
    expect(
      auditRowOf(recorded('CreditsSet', { userId: USER, credits: 5, previousBalance: 0, setBy: 'seed' })),
    ).toMatchObject({ actorId: 'seed' });
  });

  it('says what an API key did, under its name', () => {
    const row = auditRowOf(
      recorded(
        'TicketRecalled',
        { ticketId: TICKET, distributionId: LINK, userId: USER },
        { actorId: USER, apiKey: 'Box office', apiKeyId: 'k1' },
      ),
    );
    expect(row).toMatchObject({
      kind: 'links',
      eventType: 'TICKET_RECALLED',
      ticketId: TICKET,
      distributionId: LINK,
      eventData: { api_key: 'Box office', api_key_id: 'k1' },
    });
  });

  it('takes a new device’s address from the sign-in, and names what API keys, webhooks and passkeys act on', () => {
    expect(
      auditRowOf(recorded('SignInFromNewDevice', { userId: USER, device: 'Chrome on macOS', ip: '192.0.2.7' })),
    ).toMatchObject({
      eventType: 'NEW_DEVICE_SIGN_IN',
      ipAddress: '192.0.2.7',
      eventData: { device: 'Chrome on macOS' },
    });
    expect(auditRowOf(recorded('ApiKeyRevoked', { userId: USER, keyId: 'k1' }))).toMatchObject({
      eventType: 'API_KEY_REVOKED',
      subjectId: 'k1',
    });
    expect(
      auditRowOf(
        recorded('WebhookSecretRolled', { userId: USER, endpointId: 'w1', secretSealed: 's', secretPrefix: 'p' }),
      ),
    ).toMatchObject({
      eventType: 'WEBHOOK_CHANGED',
      subjectId: 'w1',
      eventData: { secret_rolled: true, previous_secret_until: null },
    });
    // Rolled with a grace: the entry says until when the old secret still signed.
    expect(
      auditRowOf(
        recorded('WebhookSecretRolled', {
          userId: USER,
          endpointId: 'w1',
          secretSealed: 's',
          secretPrefix: 'p',
          previousSecretUntil: '2026-11-27T13:00:00.000Z',
        }),
      ),
    ).toMatchObject({ eventData: { secret_rolled: true, previous_secret_until: '2026-11-27T13:00:00.000Z' } });
    expect(auditRowOf(recorded('PasskeyRemoved', { userId: USER, credentialId: 'c1' }))).toMatchObject({
      eventType: 'PASSKEY_REMOVED',
      subjectId: 'c1',
    });
  });

  it('keeps secrets out: no recovery code, key or secret hash in an entry', () => {
    const rows = [
      recorded('RecoveryCodeUsed', { userId: USER, codeHash: 'HASH-OF-CODE' }),
      recorded('ApiKeyCreated', {
        userId: USER,
        keyId: 'k1',
        name: 'Box office',
        scopes: ['links:write'],
        keyHash: 'HASH-OF-KEY',
        prefix: 'sl_live_Ab',
      }),
      recorded('WebhookEndpointCreated', {
        userId: USER,
        endpointId: 'w1',
        url: 'https://example.com/h',
        events: ['link.claimed'],
        secretSealed: 'SEALED-SECRET',
        secretPrefix: 'whsec_Ab',
      }),
      recorded('TotpEnabled', { userId: USER, recoveryCodeHashes: ['HASH-1', 'HASH-2'] }),
    ].map(auditRowOf);
    const text = JSON.stringify(rows);
    for (const secret of ['HASH-OF-CODE', 'HASH-OF-KEY', 'SEALED-SECRET', 'HASH-1']) expect(text).not.toContain(secret);
    expect(rows[3]?.eventData).toMatchObject({ recovery_codes: 2 });
  });

  it('names a link’s recipient in one line, its change from what to what, and an unsubscribe', () => {
    const link = { ticketId: 't1', distributionId: 'd1', userId: USER, at: 'x' };
    const sam = { name: 'Sam', email: 'sam@example.com' };
    const made = auditRowOf(
      recorded('TicketDistributed', { ...link, code: 'c', expiresAt: null, maxClicks: null, cost: 5, recipient: sam }),
    );
    expect(made).toMatchObject({ eventType: 'DISTRIBUTE', eventData: { recipient: 'Sam <sam@example.com>' } });
    const settings = { expiresAt: null, maxClicks: null, label: null, pinHash: null };
    const edited = auditRowOf(
      recorded('LinkUpdated', {
        ...link,
        settings: { ...settings, recipient: { name: null, email: 'jo@example.com' } },
        previous: { recipient: sam },
      }),
    );
    expect(edited!.eventData).toMatchObject({
      changes: { recipient: { from: 'Sam <sam@example.com>', to: 'jo@example.com' } },
    });
    const unsubscribed = auditRowOf(recorded('LinkRecipientUnsubscribed', { ...link, email: 'jo@example.com' }));
    expect(unsubscribed).toMatchObject({
      eventType: 'LINK_UPDATED',
      eventData: { changes: { recipient_emails: { from: 'on', to: 'off' } } },
    });
  });

  it('makes no entry of sign-ins, registrations, clicks or a payment given up', () => {
    for (const type of ['UserLoggedIn', 'UserRegistered', 'LinkClicked', 'LinkPaymentsCancelled', 'TicketDiscovered'])
      expect(auditRowOf(recorded(type, { userId: USER }))).toBeNull();
  });
});

describe('auditNamesOf', () => {
  it('names tickets by title and seat, links by label, users by e-mail, keys, webhooks and passkeys', () => {
    const pass = { title: 'Pine Hollow', section: 'A', row: '3', seat: '12' };
    expect(auditNamesOf(recorded('TicketDiscovered', { ticketId: TICKET, pass }))).toEqual([
      { kind: 'ticket', id: TICKET, name: 'Pine Hollow', detail: 'Section A, Row 3, Seat 12' },
    ]);
    expect(auditNamesOf(recorded('TicketDistributed', { distributionId: LINK }))).toEqual([
      { kind: 'link', id: LINK, name: null, detail: null },
    ]);
    expect(
      auditNamesOf(recorded('LinkUpdated', { distributionId: LINK, settings: { label: 'for Sam' }, previous: {} })),
    ).toEqual([{ kind: 'link', id: LINK, name: 'for Sam', detail: null }]);
    expect(auditNamesOf(recorded('UserRegistered', { userId: ADMIN, email: 'admin@seatlink.test' }))).toEqual([
      { kind: 'user', id: ADMIN, name: 'admin@seatlink.test', detail: null },
    ]);
    expect(auditNamesOf(recorded('UserBanned', { userId: USER, by: ADMIN }))).toEqual([]);
  });
});

describe('claimRowsOf', () => {
  const click = (k: number, at: string, link = LINK) =>
    recorded('LinkClicked', { distributionId: link, ticketId: TICKET, userId: USER, n: k, at }, {}, at);

  it('sums a storm of clicks into one entry per link and hour, with the first and last claim', () => {
    const clicks = Array.from({ length: 1000 }, (_, i) =>
      click(i + 1, new Date(Date.UTC(2026, 10, 22, 14, 0, 3) + i * 3_000).toISOString()),
    );
    // The hour after, and another link.
    clicks.push(click(1001, '2026-11-22T15:00:00.000Z'), click(1, '2026-11-22T14:30:00.000Z', LINK.replace('3', '5')));
    const rows = claimRowsOf([recorded('UserBanned', { userId: USER, by: ADMIN }), ...clicks]);
    expect(rows).toHaveLength(3);
    const [first] = rows;
    expect(first).toMatchObject({
      id: claimsEntryId(LINK, new Date('2026-11-22T14:00:00.000Z')),
      userId: USER,
      kind: 'links',
      eventType: 'LINK_CLAIMED',
      status: 'SUCCESS',
      ticketId: TICKET,
      distributionId: LINK,
      count: 1000,
      createdAt: new Date('2026-11-22T14:00:03.000Z'),
      lastAt: new Date('2026-11-22T14:50:00.000Z'),
      eventData: { hour: '2026-11-22T14:00:00.000Z', ticket_id: TICKET, distribution_id: LINK },
    });
    expect(rows[1]).toMatchObject({ count: 1, createdAt: new Date('2026-11-22T15:00:00.000Z') });
  });

  it('sums the same whatever the order the clicks come in', () => {
    const clicks = ['14:59:59.999', '14:00:00.000', '14:30:00.000'].map((t, i) => click(i + 1, `2026-11-22T${t}Z`));
    const forwards = claimRowsOf(clicks);
    const backwards = claimRowsOf([...clicks].reverse());
    expect(backwards).toEqual(forwards);
    expect(forwards[0]).toMatchObject({ count: 3, createdAt: new Date('2026-11-22T14:00:00.000Z') });
  });

  it('derives the entry id as the database does: the MD5 of the link and the hour, shaped as a UUID', () => {
    const hex = createHash('md5').update(`claims|${LINK}|2026-11-22T14:00:00.000Z`).digest('hex');
    expect(claimsEntryId(LINK.toUpperCase(), new Date('2026-11-22T14:00:00.000Z')).replaceAll('-', '')).toBe(hex);
  });

  it('sums first opens per link and hour apart from the claims of the same hour', () => {
    const open = (at: string, device: string) =>
      recorded(
        'LinkOpened',
        {
          distributionId: LINK,
          ticketId: TICKET,
          userId: USER,
          deviceHash: device,
          device: 'iPhone',
          referrer: null,
          at,
        },
        {},
        at,
      );
    const rows = claimRowsOf([
      open('2026-11-22T14:10:00.000Z', 'a'),
      click(1, '2026-11-22T14:20:00.000Z'),
      open('2026-11-22T14:45:00.000Z', 'b'),
    ]);
    expect(rows.map((r) => [r.eventType, r.count])).toEqual([
      ['LINK_OPENED', 2],
      ['LINK_CLAIMED', 1],
    ]);
    expect(rows[0]).toMatchObject({
      id: claimsEntryId(LINK, new Date('2026-11-22T14:00:00.000Z'), 'opens'),
      createdAt: new Date('2026-11-22T14:10:00.000Z'),
      lastAt: new Date('2026-11-22T14:45:00.000Z'),
    });
    expect(rows[0]!.id).not.toBe(rows[1]!.id);
  });

  it('refuses a click time that is no time (the event is parked, not counted at the epoch)', () => {
    expect(() => claimRowsOf([click(1, 'soon')])).toThrow(/Not a click time/);
  });
});
