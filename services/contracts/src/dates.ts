import { z } from 'zod';

/**
 * The instants every date input takes: 0001-01-01T00:00:00.000Z to 9999-12-31T23:59:59.999Z. Both JavaScript's Date
 * and PostgreSQL's timestamptz hold them, and both read and write them in ISO 8601's four-digit form. Past them they
 * part ways: JavaScript writes year 10000 as `+010000`, and year 0 and earlier as `0000` or `-000001`, which
 * PostgreSQL refuses (or takes for another year), so a query given such a date failed inside the database.
 */
export const EARLIEST_DATE_MS = Date.parse('0001-01-01T00:00:00.000Z');
export const LATEST_DATE_MS = Date.parse('9999-12-31T23:59:59.999Z');

/**
 * ISO 8601 as the API reads it: a calendar date (`2025-06-01`, the start of that day in UTC), or a date and time with
 * its offset (`2025-06-01T18:30:00Z`, `2025-06-01T18:30+01:00`, `2025-06-01T18:30:00.123456Z`). A time without an
 * offset is refused: the server would have to guess the zone.
 */
const ISO_DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(?:([Zz])|([+-])(\d{2}):?(\d{2})))?$/;

const daysIn = (year: number, month: number) =>
  month === 2
    ? year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)
      ? 29
      : 28
    : [4, 6, 9, 11].includes(month)
      ? 30
      : 31;

export interface ParsedDate {
  /** Milliseconds since the epoch (UTC). */
  ms: number;
  /** Given as a calendar date alone. */
  dateOnly: boolean;
}

/** The instant four-digit-year ISO 8601 text names, whatever its range; null when it names none. */
function instantOf(text: string): ParsedDate | null {
  if (text.length > 64) return null;
  const m = ISO_DATE_TIME.exec(text);
  if (!m) return null;
  const [, y, mo, d, h, mi, s, fraction, zulu, sign, oh, om] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return null;
  const dateOnly = h === undefined;
  if (!dateOnly && zulu === undefined && sign === undefined) return null;
  const hours = Number(h ?? 0);
  const minutes = Number(mi ?? 0);
  const seconds = Number(s ?? 0);
  const offsetHours = Number(oh ?? 0);
  const offsetMinutes = Number(om ?? 0);
  if (hours > 23 || minutes > 59 || seconds > 59 || offsetHours > 23 || offsetMinutes > 59) return null;
  const millis = fraction ? Number(fraction.slice(0, 3).padEnd(3, '0')) : 0;
  // setUTCFullYear, not Date.UTC: Date.UTC takes the years 0 to 99 for 1900 to 1999.
  const at = new Date(0);
  at.setUTCFullYear(year, month - 1, day);
  at.setUTCHours(hours, minutes, seconds, millis);
  const offsetMs = (offsetHours * 60 + offsetMinutes) * 60_000 * (sign === '-' ? -1 : 1);
  return { ms: at.getTime() - offsetMs, dateOnly };
}

const inRange = (ms: number) => ms >= EARLIEST_DATE_MS && ms <= LATEST_DATE_MS;

/**
 * The instant ISO 8601 text names, or null when it is not one (no such day or time, no offset, not ISO 8601 at all:
 * `Date.parse` takes `0` for the year 2000 and `2026-02-30` for March 2nd) or when it lies outside
 * EARLIEST_DATE_MS..LATEST_DATE_MS.
 */
export function parseIsoDate(text: string): ParsedDate | null {
  const parsed = instantOf(text);
  return parsed && inRange(parsed.ms) ? parsed : null;
}

/** A date JavaScript reads but outside the range: four-digit years past it, or ISO 8601's six-digit years. */
const outsideRange = (text: string) => {
  const parsed = instantOf(text);
  if (parsed) return !inRange(parsed.ms);
  return /^[+-]\d{6}-\d{2}-\d{2}(T|$)/.test(text) && !Number.isNaN(Date.parse(text));
};

export interface DateMessages {
  /** Not ISO 8601, or no such day or time. */
  invalid: string;
  /** Outside the years 1 to 9999 (UTC). */
  outOfRange?: string;
}

/** `${label} must be a date and time` / `… between the years 1 and 9999`. */
export const dateMessages = (label: string): Required<DateMessages> => ({
  invalid: `${label} must be a date and time`,
  outOfRange: `${label} must be between the years 1 and 9999`,
});

const DESCRIPTION = 'ISO 8601: YYYY-MM-DD (UTC), or a date and time with its offset; years 1 to 9999';

function checkedText(messages: DateMessages) {
  return z
    .string({ error: messages.invalid })
    .max(64, { error: messages.invalid, abort: true })
    .superRefine((text, ctx) => {
      if (parseIsoDate(text)) return;
      // A date, but outside the range: say so, rather than "not a date".
      ctx.addIssue({
        code: 'custom',
        message: messages.outOfRange && outsideRange(text) ? messages.outOfRange : messages.invalid,
      });
    });
}

/**
 * The one schema of a date/time input (query or body): ISO 8601 text, see parseIsoDate, given out as the instant's
 * canonical ISO text (`2025-06-01T17:30:00.000Z`), which JavaScript and PostgreSQL both read as the same instant.
 * Every date and time a route takes goes through this schema or isoDateText.
 */
export function isoDateTime(messages: DateMessages) {
  return checkedText(messages)
    .transform((text) => new Date(parseIsoDate(text)!.ms).toISOString())
    .meta({ description: DESCRIPTION });
}

/** As isoDateTime, but the text is given out as sent (a route that treats a calendar date as a whole day). */
export function isoDateText(messages: DateMessages) {
  return checkedText(messages).meta({ description: DESCRIPTION });
}

/** How the product writes a moment (en-GB, 24-hour): '21 Nov 2025, 14:05'. The dashboard and the e-mails alike. */
export const EN_GB_DATE_TIME: Intl.DateTimeFormatOptions = {
  day: '2-digit',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
};
