import { describe, expect, it } from 'vitest';
import { formatIsoAsEnGb, parseEnGbDate } from './en-gb-date';

describe('en-GB dates', () => {
  it('reads day/month/year as an ISO date', () => {
    expect(parseEnGbDate('02/06/2026')).toBe('2026-06-02');
    expect(parseEnGbDate(' 2/6/2026 ')).toBe('2026-06-02');
    expect(parseEnGbDate('29.02.2028')).toBe('2028-02-29');
    expect(parseEnGbDate('31-12-2030')).toBe('2030-12-31');
  });

  it('refuses what is not a calendar date in that order', () => {
    for (const text of ['', '2026-06-02', '06/31/2026', '29/02/2027', '13/13/2026', '1/1/26', 'tomorrow']) {
      expect(parseEnGbDate(text)).toBeNull();
    }
  });

  it('writes an ISO date the en-GB way', () => {
    expect(formatIsoAsEnGb('2026-06-02')).toBe('02/06/2026');
    expect(formatIsoAsEnGb('x')).toBe('x');
  });
});
