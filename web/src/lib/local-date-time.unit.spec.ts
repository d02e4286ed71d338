import { CalendarDate, CalendarDateTime } from '@internationalized/date';
import { describe, expect, it } from 'vitest';
import { ceilToMinute, instantOf, localDateTimeOf, parseCalendarDate, parseLocalDateTime } from './local-date-time';

describe('local dates and times', () => {
  it('takes an instant to the local minute, or second, and back', () => {
    const at = new Date(2026, 0, 5, 7, 9, 42, 900);
    expect(localDateTimeOf(at).toString()).toBe('2026-01-05T07:09:00');
    expect(localDateTimeOf(at, { seconds: true }).toString()).toBe('2026-01-05T07:09:42');
    expect(instantOf(localDateTimeOf(at)).getTime()).toBe(new Date(2026, 0, 5, 7, 9).getTime());
    expect(instantOf(new CalendarDateTime(2026, 1, 5, 7, 9, 4)).getTime()).toBe(
      new Date(2026, 0, 5, 7, 9, 4).getTime(),
    );
  });

  it('reads the ISO text it writes, with or without seconds', () => {
    expect(parseLocalDateTime('2026-01-05T07:09')?.toString()).toBe('2026-01-05T07:09:00');
    expect(parseLocalDateTime(' 2026-01-05T07:09:42 ')?.toString()).toBe('2026-01-05T07:09:42');
    expect(parseCalendarDate('2030-12-31')).toEqual(new CalendarDate(2030, 12, 31));
  });

  it('reads nothing else as a date', () => {
    for (const text of ['', '2026-02-30T10:00', '2026-13-01T10:00', '2026-01-01T24:00', '2026-01-01', 'soon'])
      expect(parseLocalDateTime(text)).toBeNull();
    for (const text of ['', '2027-02-29', '31/12/2030', '2030-12-31T00:00']) expect(parseCalendarDate(text)).toBeNull();
  });

  it('rounds up to the whole minute', () => {
    expect(ceilToMinute(120_000)).toBe(120_000);
    expect(ceilToMinute(120_001)).toBe(180_000);
  });
});
