import { describe, expect, it } from 'vitest';
import {
  INVITE_FORM_MESSAGES,
  inviteLastDay,
  inviteStatus,
  tomorrowLocalDate,
  earliestInviteExpiry,
  usageLevel,
  usagePercent,
  validateInviteForm,
} from './invite-codes';

describe('invite usage bar (docs/reference.md#limits-and-constants)', () => {
  it('is red from 90 %, yellow from 70 %, else green', () => {
    expect(usageLevel(90, 100)).toBe('red');
    expect(usageLevel(100, 100)).toBe('red');
    expect(usageLevel(9, 10)).toBe('red');
    expect(usageLevel(89, 100)).toBe('yellow');
    expect(usageLevel(70, 100)).toBe('yellow');
    expect(usageLevel(7, 10)).toBe('yellow');
    expect(usageLevel(69, 100)).toBe('green');
    expect(usageLevel(0, 100)).toBe('green');
    expect(usageLevel(0, 0)).toBe('green');
  });

  it('does not round up into the next colour', () => {
    // 179 / 200 = 89.5 %
    expect(usageLevel(179, 200)).toBe('yellow');
    // 139 / 200 = 69.5 %
    expect(usageLevel(139, 200)).toBe('green');
  });

  it('fills at most the whole bar', () => {
    expect(usagePercent(150, 100)).toBe(100);
    expect(usagePercent(1, 4)).toBe(25);
  });
});

describe('invite status', () => {
  const now = new Date('2025-06-10T12:00:00Z');
  it('is Disabled, Expired or Active', () => {
    expect(inviteStatus({ enabled: false, expires_at: '2030-01-01T00:00:00Z' }, now)).toBe('Disabled');
    expect(inviteStatus({ enabled: false, expires_at: '2020-01-01T00:00:00Z' }, now)).toBe('Disabled');
    expect(inviteStatus({ enabled: true, expires_at: '2025-06-10T12:00:00Z' }, now)).toBe('Expired');
    expect(inviteStatus({ enabled: true, expires_at: '2025-06-11T00:00:00Z' }, now)).toBe('Active');
  });

  it('names the last day a code works', () => {
    // A date chosen in the form is stored as the end of that UTC day.
    expect(inviteLastDay('2025-12-02T00:00:00.000Z')).toBe('2025-12-01');
    expect(inviteLastDay('2025-12-01T15:30:00.000Z')).toBe('2025-12-01');
    expect(inviteLastDay('nonsense')).toBeNull();
  });
});

describe('tomorrow in local time', () => {
  it('rolls over months, years and leap days', () => {
    expect(tomorrowLocalDate(new Date(2025, 5, 10, 0, 0))).toBe('2025-06-11');
    expect(tomorrowLocalDate(new Date(2025, 5, 10, 23, 59))).toBe('2025-06-11');
    expect(tomorrowLocalDate(new Date(2025, 11, 31, 12, 0))).toBe('2026-01-01');
    expect(tomorrowLocalDate(new Date(2024, 1, 28, 8, 0))).toBe('2024-02-29');
  });
});

describe('invite generate form (docs/reference.md#admin-form-rules)', () => {
  const now = new Date(2025, 5, 10, 12, 0);

  it('gives the body for good values', () => {
    expect(validateInviteForm({ maxUses: '100', expiresAt: '2025-06-11' }, now)).toEqual({
      ok: true,
      body: { max_uses: 100, expires_at: '2025-06-11' },
    });
    expect(validateInviteForm({ maxUses: ' 1000 ', expiresAt: '2026-01-31' }, now)).toMatchObject({ ok: true });
    expect(validateInviteForm({ maxUses: '1', expiresAt: '2026-01-31' }, now)).toMatchObject({ ok: true });
  });

  it('wants max uses a whole number from 1 to 1000', () => {
    for (const maxUses of ['', '0', '1001', '1.5', '-3', 'abc', '1e2']) {
      expect(validateInviteForm({ maxUses, expiresAt: '2025-06-11' }, now)).toEqual({
        ok: false,
        errors: { maxUses: INVITE_FORM_MESSAGES.maxUses },
      });
    }
  });

  it('wants an expiry date of tomorrow or later', () => {
    expect(validateInviteForm({ maxUses: '100', expiresAt: '' }, now)).toEqual({
      ok: false,
      errors: { expiresAt: 'Expiry date is required' },
    });
    for (const expiresAt of ['2025-06-10', '2025-06-09', '2025-02-30', '11/06/2025']) {
      expect(validateInviteForm({ maxUses: '100', expiresAt }, now)).toEqual({
        ok: false,
        errors: { expiresAt: 'Expiry date must be tomorrow or later' },
      });
    }
  });
});

describe('earliestInviteExpiry', () => {
  it('is never earlier than tomorrow in UTC, nor than tomorrow here', () => {
    const now = new Date(Date.UTC(2025, 5, 10, 23, 30));
    const utcTomorrow = '2025-06-11';
    expect(earliestInviteExpiry(now) >= utcTomorrow).toBe(true);
    expect(earliestInviteExpiry(now) >= tomorrowLocalDate(now)).toBe(true);
    expect([utcTomorrow, tomorrowLocalDate(now)]).toContain(earliestInviteExpiry(now));
  });
});
