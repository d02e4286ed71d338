/** Display formatters (SPEC.md §9: en-GB dates, GBP with the pound sign, one credit per pound). */

import { EN_GB_DATE_TIME } from '@seatlink/contracts';

type DateInput = string | number | Date | null | undefined;

export interface FormatOptions {
  /** IANA time zone; the browser's own when omitted. */
  timeZone?: string;
}

const EMPTY = '—';

function toDate(value: DateInput): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * One formatter per options and time zone, made once: making an Intl.DateTimeFormat costs far more than formatting
 * with it, and a scrolled list of 10,000 tickets formats a date for every card it lays out.
 */
function dateFormatter(options: Intl.DateTimeFormatOptions): (timeZone: string | undefined) => Intl.DateTimeFormat {
  const made = new Map<string | undefined, Intl.DateTimeFormat>();
  return (timeZone) => {
    let formatter = made.get(timeZone);
    if (!formatter) {
      formatter = new Intl.DateTimeFormat('en-GB', { ...options, timeZone });
      made.set(timeZone, formatter);
    }
    return formatter;
  };
}

const dateOnly = dateFormatter({ day: '2-digit', month: 'short', year: 'numeric' });
const dateTime = dateFormatter(EN_GB_DATE_TIME);

/** '21 Nov 2025' */
export function formatDate(value: DateInput, { timeZone }: FormatOptions = {}): string {
  const date = toDate(value);
  return date ? dateOnly(timeZone).format(date) : EMPTY;
}

/** '21 Nov 2025, 14:05' (24-hour clock) */
export function formatDateTime(value: DateInput, { timeZone }: FormatOptions = {}): string {
  const date = toDate(value);
  return date ? dateTime(timeZone).format(date) : EMPTY;
}

/**
 * A formatter made at its first use: making one costs far more than using it (the first of a kind loads its locale
 * data), and a page that loads this module uses few of them — made at once, they were a long task of their own on a
 * phone as the dashboard started.
 */
export function madeOnce<F>(make: () => F): () => F {
  let made: F | undefined;
  return () => (made ??= make());
}

const gbp = madeOnce(() => new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP' }));

/** '£25.00' */
export function formatGBP(amount: number): string {
  return gbp().format(amount);
}

const credits = madeOnce(() => new Intl.NumberFormat('en-GB', { maximumFractionDigits: 2 }));

/** A credit balance: '1,250' or '12.5'. */
export function formatCredits(amount: number): string {
  return credits().format(amount);
}

const count = madeOnce(() => new Intl.NumberFormat('en-GB'));

/** A count of things: '10,000'. */
export function formatCount(n: number): string {
  return count().format(n);
}

/** Whole percent of `part` in `total`, 0 when there is nothing to divide: percentOf(1, 3) → 33. */
export function percentOf(part: number, total: number): number {
  if (!Number.isFinite(part) || !Number.isFinite(total) || total <= 0) return 0;
  return Math.round((part / total) * 100);
}

const minutesAgo = madeOnce(() => new Intl.RelativeTimeFormat('en-GB', { style: 'short', numeric: 'always' }));

/** How long ago, in whole minutes, en-GB: '5 min ago'; under a minute 'just now'. */
export function formatMinutesAgo(minutes: number): string {
  const whole = Math.floor(minutes);
  if (!Number.isFinite(whole) || whole < 1) return 'just now';
  return minutesAgo().format(-whole, 'minute');
}
