import { describe, expect, it } from 'vitest';
import { ceilToMinute, parseDateTimeLocal, toDateTimeLocalValue } from './datetime-local';

describe('datetime-local values', () => {
  it('round-trips a local time to the minute', () => {
    const at = new Date(2026, 0, 5, 7, 9, 42);
    expect(toDateTimeLocalValue(at)).toBe('2026-01-05T07:09');
    expect(parseDateTimeLocal('2026-01-05T07:09')?.getTime()).toBe(new Date(2026, 0, 5, 7, 9).getTime());
    expect(parseDateTimeLocal('2026-01-05T07:09:42.5')?.getTime()).toBe(new Date(2026, 0, 5, 7, 9, 42, 500).getTime());
  });

  it('keeps the seconds when asked (a field with step 1)', () => {
    const at = new Date(2026, 0, 5, 7, 9, 4, 900);
    expect(toDateTimeLocalValue(at, { seconds: true })).toBe('2026-01-05T07:09:04');
    expect(parseDateTimeLocal(toDateTimeLocalValue(at, { seconds: true }))?.getTime()).toBe(
      new Date(2026, 0, 5, 7, 9, 4).getTime(),
    );
  });

  it('reads nothing else as a date', () => {
    for (const value of ['', '2026-02-30T10:00', '2026-13-01T10:00', '2026-01-01T24:00', '2026-01-01', 'soon'])
      expect(parseDateTimeLocal(value)).toBeNull();
  });

  it('rounds up to the whole minute', () => {
    expect(ceilToMinute(120_000)).toBe(120_000);
    expect(ceilToMinute(120_001)).toBe(180_000);
  });
});
