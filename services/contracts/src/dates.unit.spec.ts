import { describe, expect, it } from 'vitest';
import { auditQuerySchema, historyQuerySchema } from './audit.js';
import { EARLIEST_DATE_MS, LATEST_DATE_MS, isoDateText, isoDateTime, parseIsoDate } from './dates.js';
import { distributeRequestSchema } from './distribution.js';
import { createInviteRequestSchema } from './identity.js';

const messages = { invalid: 'when must be a date and time', outOfRange: 'when must be between the years 1 and 9999' };
const when = isoDateTime(messages);
const issue = (result: { success: boolean; error?: { issues: Array<{ message: string }> } }) =>
  result.success ? null : result.error!.issues.map((i) => i.message).join('; ');

describe('the one date schema of the API', () => {
  it.each([
    ['2025-06-01', '2025-06-01T00:00:00.000Z'],
    ['2025-06-01T18:30:00Z', '2025-06-01T18:30:00.000Z'],
    ['2025-06-01t18:30z', '2025-06-01T18:30:00.000Z'],
    ['2025-06-01T18:30+01:00', '2025-06-01T17:30:00.000Z'],
    ['2025-06-01T18:30:00.123456789-0230', '2025-06-01T21:00:00.123Z'],
    ['2024-02-29T00:00:00Z', '2024-02-29T00:00:00.000Z'],
    ['2000-02-29', '2000-02-29T00:00:00.000Z'],
    ['0001-01-01T00:00:00.000Z', '0001-01-01T00:00:00.000Z'],
    ['0050-06-01', '0050-06-01T00:00:00.000Z'],
    ['9999-12-31T23:59:59.999Z', '9999-12-31T23:59:59.999Z'],
    ['9999-12-31T23:59:59.999+05:00', '9999-12-31T18:59:59.999Z'],
  ])('takes %s as %s', (text, iso) => {
    expect(when.parse(text)).toBe(iso);
    // What it gives out, PostgreSQL reads as the same instant: four-digit years, UTC.
    expect(iso).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  it.each([
    '+010000-01-01T00:00:00Z',
    '-271821-04-20T00:00:00.000Z',
    '+275760-09-13T00:00:00.000Z',
    '-000001-01-01T00:00:00Z',
    '0000-01-01',
    '0000-12-31T23:59:59.999Z',
    '0001-01-01T00:30:00+01:00',
    '9999-12-31T23:00:00-05:00',
  ])('refuses %s: outside the years 1 to 9999', (text) => {
    expect(parseIsoDate(text)).toBeNull();
    expect(issue(when.safeParse(text))).toBe(messages.outOfRange);
  });

  it.each([
    '10000-01-01',
    '2026-02-30',
    '2025-13-01',
    '2025-00-10',
    '2023-02-29',
    '2025-06-01T24:00:00Z',
    '2025-06-01T12:60Z',
    '2025-06-01T12:00:60Z',
    '2025-06-01T12:00',
    '2025-06-01T12:00:00',
    '2025-06-01 12:00:00Z',
    '0',
    '2025',
    'tomorrow',
    'Tue Mar 01 2022',
    '',
    ' 2025-06-01',
    '2025-06-01\u0000',
    '2025-06-01T00:00:00Z\u202e',
    '\ud800',
    '2025-06-01T00:00:00.0000000000Z',
    '9'.repeat(100_000),
  ])('refuses %#: not ISO 8601, or no such day or time', (text) => {
    expect(parseIsoDate(text)).toBeNull();
    expect(issue(when.safeParse(text))).toBe(messages.invalid);
  });

  it.each([null, 0, 1e20, true, {}, [], ['2025-06-01']])('refuses %j: not text', (value) => {
    expect(issue(when.safeParse(value))).toBe(messages.invalid);
  });

  it('bounds are the instants both JavaScript and PostgreSQL write with four-digit years', () => {
    expect(new Date(EARLIEST_DATE_MS).toISOString()).toBe('0001-01-01T00:00:00.000Z');
    expect(new Date(LATEST_DATE_MS).toISOString()).toBe('9999-12-31T23:59:59.999Z');
    expect(new Date(LATEST_DATE_MS + 1).toISOString()).toBe('+010000-01-01T00:00:00.000Z');
  });

  it('isoDateText keeps the text as sent (a calendar date stays a day)', () => {
    expect(isoDateText(messages).parse('2025-06-01')).toBe('2025-06-01');
    expect(issue(isoDateText(messages).safeParse('2025-06-31'))).toBe(messages.invalid);
  });

  describe('every date input of the contracts uses it', () => {
    it.each([
      [
        'start_date',
        { start_date: '+010000-01-01T00:00:00Z' },
        'start_date: start_date must be between the years 1 and 9999',
      ],
      [
        'end_date',
        { end_date: '-271821-04-20T00:00:00.000Z' },
        'end_date: end_date must be between the years 1 and 9999',
      ],
      ['start_date', { start_date: '2026-02-30' }, 'start_date: start_date must be a date and time'],
    ])('audits: %s', (_field, query, message) => {
      const result = auditQuerySchema.safeParse(query);
      expect(result.success).toBe(false);
      const first = result.error!.issues[0]!;
      expect(`${first.path.join('.')}: ${first.message}`).toBe(message);
    });

    it.each(['10000-01-01', '0000-01-01', '+200000-01-01T00:00:00Z', '-200000-01-01T00:00:00Z'])(
      'history: at=%s',
      (at) => {
        expect(historyQuerySchema.safeParse({ at }).success).toBe(false);
      },
    );

    it('a link expiry past the years the database holds is "within five years", never a crash', () => {
      const result = distributeRequestSchema.safeParse({
        ticket_ids: ['5f0c0e4e-5a54-4e55-9f4b-1c9a1b2c3d4e'],
        expiry_date: '+275760-09-13T00:00:00.000Z',
      });
      expect(issue(result)).toBe('Link expiry must be within five years');
    });

    it('an invite expiry keeps its day, and refuses days that do not exist', () => {
      expect(createInviteRequestSchema.parse({ expires_at: '2030-01-31' }).expires_at).toBe('2030-01-31');
      expect(issue(createInviteRequestSchema.safeParse({ expires_at: '2030-02-31' }))).toBe(
        'expires_at must be a date (YYYY-MM-DD)',
      );
    });
  });
});
