import {
  fromDate,
  getLocalTimeZone,
  parseDate,
  parseDateTime,
  toCalendarDateTime,
  type CalendarDate,
  type CalendarDateTime,
} from '@internationalized/date';

/**
 * Dates and times as the date pickers hold them (`@internationalized/date`): a calendar date and a wall-clock time
 * without a zone, read in the browser's own time zone — the link expiry of the Distribution Settings modal, the audit
 * log's date range and replay moment (docs/reference.md "User Audit Log screen", "Admin form rules"), the invite
 * expiry. Never through Date's string parsing, so every browser reads them the same way.
 */

/** The local date and time of an instant, to the minute, or to the second with `seconds`. */
export function localDateTimeOf(at: Date | number, { seconds = false }: { seconds?: boolean } = {}): CalendarDateTime {
  const local = toCalendarDateTime(fromDate(new Date(at), getLocalTimeZone()));
  return local.set({ second: seconds ? local.second : 0, millisecond: 0 });
}

/** The instant a local date and time names in the browser's time zone. */
export function instantOf(value: CalendarDateTime): Date {
  return value.toDate(getLocalTimeZone());
}

/**
 * A local date and time written as ISO text without a zone ('2026-11-22T10:30', as `toString()` writes it, seconds
 * optional), or null when the text names none ('' included; 31 February is no date).
 */
export function parseLocalDateTime(text: string): CalendarDateTime | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/.test(text.trim())) return null;
  try {
    return parseDateTime(text.trim());
  } catch {
    return null;
  }
}

/** A calendar date as ISO text ('2026-11-22'), or null when the text names none. */
export function parseCalendarDate(text: string): CalendarDate | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text.trim())) return null;
  try {
    return parseDate(text.trim());
  } catch {
    return null;
  }
}

/** The first whole minute at or after `time` (epoch ms). */
export function ceilToMinute(time: number): number {
  return Math.ceil(time / 60_000) * 60_000;
}
