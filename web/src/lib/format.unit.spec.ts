import { afterEach, describe, expect, it } from 'vitest';
import { EN_GB_DATE_TIME } from '@seatlink/contracts';
import { formatLinkExpiry } from './distribution';
import {
  countOf,
  creditsOf,
  formatCount,
  formatCredits,
  formatDate,
  formatDateTime,
  formatGBP,
  formatMinutesAgo,
  formatShare,
  percentOf,
} from './format';

describe('formatters', () => {
  it('formats dates en-GB', () => {
    expect(formatDate('2025-11-21T14:05:00Z', { timeZone: 'UTC' })).toBe('21 Nov 2025');
    expect(formatDateTime('2025-11-21T14:05:00Z', { timeZone: 'UTC' })).toBe('21 Nov 2025, 14:05');
    expect(formatDateTime('2025-07-01T23:30:00Z', { timeZone: 'Europe/London' })).toBe('02 Jul 2025, 00:30');
  });

  it('shows a dash for a missing or invalid date', () => {
    expect(formatDate(null)).toBe('—');
    expect(formatDate('')).toBe('—');
    expect(formatDateTime('not a date')).toBe('—');
  });

  it('formats pounds and credits', () => {
    expect(formatGBP(25)).toBe('£25.00');
    expect(formatGBP(1234.5)).toBe('£1,234.50');
    expect(formatCredits(1250)).toBe('1,250');
    expect(formatCredits(12.5)).toBe('12.5');
    expect(formatCredits(0)).toBe('0');
  });

  it('groups the thousands of a count', () => {
    expect(formatCount(10000)).toBe('10,000');
    expect(formatCount(1)).toBe('1');
  });

  it('gives whole percentages and 0 for an empty total', () => {
    expect(percentOf(0, 0)).toBe(0);
    expect(percentOf(1, 3)).toBe(33);
    expect(percentOf(2, 3)).toBe(67);
    expect(percentOf(5, 5)).toBe(100);
  });

  it('puts a count and its noun in agreement, the count grouped', () => {
    expect(countOf(1, 'ticket')).toBe('1 ticket');
    expect(countOf(0, 'ticket')).toBe('0 tickets');
    expect(countOf(2, 'ticket')).toBe('2 tickets');
    expect(countOf(10_026, 'ticket')).toBe('10,026 tickets');
    expect(countOf(1, 'pass', 'passes')).toBe('1 pass');
    expect(countOf(3, 'pass', 'passes')).toBe('3 passes');
    expect(creditsOf(1)).toBe('1 credit');
    expect(creditsOf(0)).toBe('0 credits');
    expect(creditsOf(1_250)).toBe('1,250 credits');
    expect(creditsOf(1.5)).toBe('1.5 credits');
  });

  it('never rounds a share to none or all when it is neither', () => {
    expect(formatShare(0, 10_026)).toBe('0%');
    expect(formatShare(0, 0)).toBe('0%');
    expect(formatShare(2, 10_026)).toBe('<1%');
    expect(formatShare(1, 201)).toBe('<1%'); // 0.497 %
    expect(formatShare(1, 199)).toBe('1%'); // 0.503 %
    expect(formatShare(1, 3)).toBe('33%');
    expect(formatShare(199, 200)).toBe('>99%'); // 99.5 %
    expect(formatShare(10_024, 10_026)).toBe('>99%');
    expect(formatShare(99, 100)).toBe('99%');
    expect(formatShare(5, 5)).toBe('100%');
  });
});

describe('minutes ago (en-GB)', () => {
  it('reads whole minutes, and just now under one', () => {
    expect(formatMinutesAgo(5.9)).toBe('5 min ago');
    expect(formatMinutesAgo(1)).toBe('1 min ago');
    expect(formatMinutesAgo(0.5)).toBe('just now');
    expect(formatMinutesAgo(-3)).toBe('just now');
    expect(formatMinutesAgo(Number.NaN)).toBe('just now');
  });
});

describe('the formats written out without Intl give what Intl gives', () => {
  // Dates from 1 AD to 9999 AD, thick around now and around the clock changes, in zones with odd offsets and
  // daylight saving; the process's zone is switched (TZ) and put back.
  const zones = ['Europe/London', 'America/New_York', 'Asia/Kolkata', 'Pacific/Chatham', 'America/St_Johns', 'UTC'];
  const instants = (() => {
    const out: number[] = [];
    let seed = 7;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 1_500; i++) out.push(Date.UTC(2020, 0, 1) + random() * 20 * 365 * 86_400_000);
    const yearOne = new Date(0).setUTCFullYear(1, 0, 1); // Date.UTC(1, …) would be 1901
    for (let i = 0; i < 300; i++) out.push(yearOne + random() * 9_998 * 365 * 86_400_000);
    // Every 15 minutes around the UK's and the US's clock changes of 2026.
    for (const start of [Date.UTC(2026, 2, 28, 22), Date.UTC(2026, 9, 24, 22), Date.UTC(2026, 2, 8, 4)]) {
      for (let m = 0; m < 8 * 60; m += 15) out.push(start + m * 60_000);
    }
    out.push(
      Date.UTC(2026, 8, 5, 0, 7),
      Date.UTC(9999, 11, 31, 12),
      Date.UTC(1000, 0, 1, 12),
      Date.UTC(2026, 11, 31, 23, 59),
    );
    return out;
  })();
  const savedZone = process.env.TZ;
  afterEach(() => {
    if (savedZone === undefined) delete process.env.TZ;
    else process.env.TZ = savedZone;
  });

  it.each(zones)('dates, date-times and link expiries in %s', (zone) => {
    process.env.TZ = zone;
    const date = new Intl.DateTimeFormat('en-GB', { day: '2-digit', month: 'short', year: 'numeric' });
    const dateTime = new Intl.DateTimeFormat('en-GB', EN_GB_DATE_TIME);
    const expiry = new Intl.DateTimeFormat('en-GB', {
      day: '2-digit',
      month: 'short',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    // The zone is in force (ICU may name it by an older alias).
    expect([zone, 'Asia/Calcutta']).toContain(date.resolvedOptions().timeZone);
    for (const at of instants) {
      const iso = new Date(at).toISOString();
      expect([formatDate(iso), formatDateTime(iso), formatLinkExpiry(iso)], iso).toEqual([
        date.format(at),
        dateTime.format(at),
        expiry.format(at),
      ]);
    }
  });

  it('years Intl writes (before 1 AD, after 9999) and other zones still go to Intl', () => {
    const far = new Date(8.64e15).toISOString(); // 13 Sept 275760
    expect(formatDate(far, { timeZone: 'UTC' })).toBe('13 Sept 275760');
    expect(formatDateTime('2025-07-01T23:30:00Z', { timeZone: 'Asia/Tokyo' })).toBe('02 Jul 2025, 08:30');
    expect(formatDate(new Date(-8.64e15))).toBe(
      new Intl.DateTimeFormat('en-GB', { day: '2-digit', month: 'short', year: 'numeric' }).format(-8.64e15),
    );
  });

  it('counts and credits', () => {
    const intl = new Intl.NumberFormat('en-GB');
    const credits = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 2 });
    const numbers = [0, -0, 1, 9, 10, 99, 100, 999, 1_000, 9_999, 10_000, 123_456, 1_000_000, -1, -1_000, -987_654_321];
    numbers.push(Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, 2 ** 53, 1e21, 12.5, 0.125, -3.999, NaN, Infinity);
    for (let n = 1; n < 1e15; n = n * 7 + 3) numbers.push(n, -n);
    for (const n of numbers) {
      expect(formatCount(n), String(n)).toBe(intl.format(n));
      expect(formatCredits(n), String(n)).toBe(credits.format(n));
    }
  });
});
