import { describe, expect, it } from 'vitest';
import type { AuditEntry, AuditNames } from './audit.js';
import { auditSubject, describeAuditEntry } from './audit-description.js';

const NO_NAMES: AuditNames = { ticket: null, seat: null, link: null, by: null, api_key: null, subject: null };

function entry(
  event_type: AuditEntry['event_type'],
  data: Record<string, unknown> = {},
  names: Partial<AuditNames> = {},
): AuditEntry {
  return {
    id: 'e1',
    created_at: '2026-11-22T14:05:00.000Z',
    kind: 'links',
    event_type,
    event_data: { status: 'SUCCESS', ticket_id: null, distribution_id: null, ...data },
    metadata: { ip_address: null, bulk_action: false },
    names: { ...NO_NAMES, ...names },
  };
}

const format = {
  time: (iso: string) => iso.slice(11, 16),
  dateTime: (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)}`,
};
const describe_ = (e: AuditEntry) => describeAuditEntry(e, format);
const ticket = { ticket: 'Pine Hollow', seat: 'Section A, Row 3, Seat 12', link: 'for Sam' };

describe('auditSubject', () => {
  it('names the ticket with its seat, and the link by its label', () => {
    expect(auditSubject(entry('DISTRIBUTE', {}, ticket))).toBe('Pine Hollow (Section A, Row 3, Seat 12) · “for Sam”');
    expect(auditSubject(entry('DISTRIBUTE', {}, { ticket: 'Pine Hollow' }))).toBe('Pine Hollow');
    expect(auditSubject(entry('DISTRIBUTE'))).toBeNull();
  });
});

describe('describeAuditEntry', () => {
  it('tells a link made: its ticket, cost, limit and expiry', () => {
    expect(
      describe_(entry('DISTRIBUTE', { cost: 5, max_clicks: 10, expires_at: '2026-12-01T18:00:00.000Z' }, ticket)),
    ).toBe(
      'Pine Hollow (Section A, Row 3, Seat 12) · “for Sam” · 5 credits · at most 10 clicks · expires 2026-12-01 18:00',
    );
  });

  it('tells whom a link is for, and a recipient changed', () => {
    expect(describe_(entry('DISTRIBUTE', { cost: 5, recipient: 'Sam <sam@example.com>' }))).toBe(
      '5 credits · to Sam <sam@example.com>',
    );
    expect(
      describe_(entry('LINK_UPDATED', { changes: { recipient: { from: null, to: 'Sam <sam@example.com>' } } })),
    ).toBe('Recipient none → Sam <sam@example.com>');
  });

  it('leaves the ticket and link out for a table that shows them in columns of their own', () => {
    const made = entry('DISTRIBUTE', { cost: 5 }, ticket);
    expect(describeAuditEntry(made, { ...format, subject: false })).toBe('5 credits');
    const claims = entry('LINK_CLAIMED', { claims: 3, last_claim_at: '2026-11-22T14:52:10.000Z' }, ticket);
    expect(describeAuditEntry(claims, { ...format, subject: false })).toBe('3 claims 14:05–14:52');
  });

  it('tells why an attempt failed', () => {
    expect(
      describe_(
        entry(
          'DISTRIBUTE',
          { status: 'FAILED', reason: 'Ticket is already distributed', cost: 5 },
          { ticket: 'Quince' },
        ),
      ),
    ).toBe('Quince · Ticket is already distributed');
  });

  it('tells an edit from what to what, in the settings’ order', () => {
    const changes = { label: { from: null, to: 'for Sam' }, max_clicks: { from: 5, to: 12 } };
    expect(describe_(entry('LINK_UPDATED', { changes }, { ticket: 'Pine Hollow' }))).toBe(
      'Pine Hollow · Click limit 5 → 12; Label none → “for Sam”',
    );
  });

  it('tells the claims of an hour as one line with their count and span', () => {
    const claims = entry('LINK_CLAIMED', { claims: 1200, last_claim_at: '2026-11-22T14:52:10.000Z' }, ticket);
    expect(describe_(claims)).toBe('1,200 claims 14:05–14:52 · Pine Hollow (Section A, Row 3, Seat 12) · “for Sam”');
    expect(describe_(entry('LINK_CLAIMED', { claims: 1, last_claim_at: '2026-11-22T14:05:00.000Z' }))).toBe(
      '1 claim at 14:05',
    );
  });

  it('tells the first opens of an hour as one line with the devices and span', () => {
    const opens = entry('LINK_OPENED', { opens: 3, last_open_at: '2026-11-22T14:40:00.000Z' }, ticket);
    expect(describe_(opens)).toBe(
      'opened on 3 new devices 14:05–14:40 · Pine Hollow (Section A, Row 3, Seat 12) · “for Sam”',
    );
    expect(describe_(entry('LINK_OPENED', { opens: 1, last_open_at: '2026-11-22T14:05:00.000Z' }))).toBe(
      'opened on 1 new device at 14:05',
    );
  });

  it('tells credits set from what to what, by which admin, and why', () => {
    const set = entry('CREDITS_SET', { from: 50, to: 1075, reason: 'Goodwill' }, { by: 'admin@seatlink.test' });
    expect(describe_(set)).toBe('50 → 1,075 · by admin@seatlink.test · “Goodwill”');
    // Sets recorded before reasons were asked for.
    expect(describe_(entry('CREDITS_SET', { from: 0, to: 50 }))).toBe('0 → 50 · no reason recorded');
  });

  it('tells payments, spending, refunds and disputes with the balance they left', () => {
    expect(describe_(entry('CREDITS_BOUGHT', { amount: 25, amount_pence: 2500, balance_after: 75 }))).toBe(
      '+25 credits by card · £25.00 · balance 75',
    );
    expect(describe_(entry('CREDITS_SPENT', { amount: 15, links: 3, balance_after: 60 }))).toBe(
      '−15 credits for 3 links · balance 60',
    );
    expect(describe_(entry('CREDITS_GIVEN_BACK', { amount: 5, links: 1, balance_after: 65 }))).toBe(
      '+5 credits for 1 link not made · balance 65',
    );
    expect(
      describe_(entry('CREDITS_TAKEN_BACK', { amount: 10, requested: 25, reason: 'refund', balance_after: 0 })),
    ).toBe(
      '−10 credits · card payment refunded · 15 credits more could not be taken: the balance held no more · balance 0',
    );
    expect(describe_(entry('CREDITS_TAKEN_BACK', { amount: 25, requested: 25, reason: 'dispute_lost' }))).toBe(
      '−25 credits · card dispute lost',
    );
    expect(describe_(entry('PAYMENT_DISPUTED', { amount_pence: 1999, reason: 'fraudulent' }))).toBe(
      '£19.99 disputed · fraudulent',
    );
  });

  it('tells who banned, unbanned or asked for a password reset', () => {
    expect(describe_(entry('USER_BANNED', {}, { by: 'admin@seatlink.test' }))).toBe('by admin@seatlink.test');
    expect(describe_(entry('PASSWORD_RESET_REQUESTED', {}, { by: 'admin@seatlink.test' }))).toBe(
      'by admin@seatlink.test',
    );
    expect(describe_(entry('PASSWORD_RESET_REQUESTED'))).toBe('asked for by the user');
    expect(describe_(entry('PASSWORD_CHANGED', { reason: 'reset' }))).toBe('with a reset link');
  });

  it('tells sign-ins, sessions and second factors', () => {
    expect(describe_(entry('NEW_DEVICE_SIGN_IN', { device: 'Chrome on macOS' }))).toBe('Chrome on macOS');
    expect(describe_(entry('SESSIONS_ENDED', { sessions: 2 }))).toBe('2 sessions signed out');
    expect(describe_(entry('AUTHENTICATOR_ADDED', { recovery_codes: 10 }))).toBe('10 recovery codes given');
    expect(describe_(entry('PASSKEY_ADDED', { name: 'MacBook' }))).toBe('“MacBook”');
    expect(describe_(entry('PASSKEY_REMOVED', {}, { subject: 'MacBook' }))).toBe('“MacBook”');
    expect(describe_(entry('RECOVERY_CODE_USED'))).toBe('');
  });

  it('names API keys and webhooks, and what a key did', () => {
    expect(describe_(entry('API_KEY_CREATED', { name: 'Box office', scopes: ['links:write', 'tickets:read'] }))).toBe(
      '“Box office” · links:write, tickets:read',
    );
    expect(describe_(entry('API_KEY_REVOKED', {}, { subject: 'Box office' }))).toBe('“Box office”');
    expect(describe_(entry('WEBHOOK_ADDED', { url: 'https://example.com/h', events: ['link.claimed'] }))).toBe(
      'https://example.com/h · link.claimed',
    );
    expect(describe_(entry('WEBHOOK_CHANGED', { secret_rolled: true }, { subject: 'https://example.com/h' }))).toBe(
      'https://example.com/h · new signing secret',
    );
    expect(
      describe_(
        entry(
          'WEBHOOK_CHANGED',
          { secret_rolled: true, previous_secret_until: '2026-11-27T13:00:00.000Z' },
          { subject: 'https://example.com/h' },
        ),
      ),
    ).toBe('https://example.com/h · new signing secret · the old one signs until 2026-11-27 13:00:00 UTC');
    expect(
      describe_(
        entry('WEBHOOK_DISABLED', { by: 'seatlink', reason: 'Failing for 3 days' }, { subject: 'https://x.test' }),
      ),
    ).toBe('https://x.test · by Seatlink: Failing for 3 days');
    expect(describe_(entry('TICKET_RECALLED', {}, { ticket: 'Pine Hollow', api_key: 'Box office' }))).toBe(
      'Pine Hollow · with API key “Box office”',
    );
  });
});
