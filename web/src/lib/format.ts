/**
 * Display formatters (docs/reference.md "Limits and constants": en-GB dates, GBP with the pound sign, one credit per
 * pound).
 */

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
 * with it.
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

/*
 * The dashboard's own formats (dates in the browser's time zone, counts, whole credits) are written out here, not
 * made by Intl: a page's first Intl number or date formatter loads the locale's data, 35–100 ms on this machine
 * and four times that on a phone, in one task, as the dashboard first shows its stats and cards. They give exactly
 * what Intl gives for en-GB (format.unit.spec.ts compares them over thousands of dates in several time zones and of
 * numbers). Anything else (another time zone, a year outside 1–9999, pennies, pounds) still goes to Intl.
 */

/** CLDR's en-GB short month names (September is 'Sept'). */
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sept', 'Oct', 'Nov', 'Dec'] as const;

const twoDigits = (n: number) => (n < 10 ? `0${n}` : String(n));

/** A date the local formats write out: in the browser's zone, a year of four digits or fewer. */
function localDate(date: Date, timeZone: string | undefined): boolean {
  if (timeZone !== undefined) return false;
  const year = date.getFullYear();
  return year >= 1 && year <= 9999;
}

/** '05 Dec' in the browser's time zone. */
function localDayMonth(date: Date): string {
  return `${twoDigits(date.getDate())} ${MONTHS[date.getMonth()]}`;
}

/** '09:30' in the browser's time zone (24-hour clock). */
function localTime(date: Date): string {
  return `${twoDigits(date.getHours())}:${twoDigits(date.getMinutes())}`;
}

/** en-GB date formats without Intl, in the browser's time zone (for a date localDate accepts). */
export const localFormat = {
  /** '21 Nov 2025' */
  date: (date: Date) => `${localDayMonth(date)} ${date.getFullYear()}`,
  /** '21 Nov 2025, 14:05' */
  dateTime: (date: Date) => `${localDayMonth(date)} ${date.getFullYear()}, ${localTime(date)}`,
  /** '21 Nov, 14:05' */
  dayMonthTime: (date: Date) => `${localDayMonth(date)}, ${localTime(date)}`,
  /** '14:05' */
  time: localTime,
  accepts: localDate,
};

/** '21 Nov 2025' */
export function formatDate(value: DateInput, { timeZone }: FormatOptions = {}): string {
  const date = toDate(value);
  if (!date) return EMPTY;
  return localDate(date, timeZone) ? localFormat.date(date) : dateOnly(timeZone).format(date);
}

/** '21 Nov 2025, 14:05' (24-hour clock) */
export function formatDateTime(value: DateInput, { timeZone }: FormatOptions = {}): string {
  const date = toDate(value);
  if (!date) return EMPTY;
  return localDate(date, timeZone) ? localFormat.dateTime(date) : dateTime(timeZone).format(date);
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

/** A whole number with its thousands grouped en-GB ('-12,345'), or null for one Intl should write (-0, unsafe). */
function groupedInteger(n: number): string | null {
  if (!Number.isSafeInteger(n) || Object.is(n, -0)) return null;
  const digits = String(Math.abs(n));
  let out = digits.slice(0, ((digits.length - 1) % 3) + 1);
  for (let i = out.length; i < digits.length; i += 3) out += `,${digits.slice(i, i + 3)}`;
  return n < 0 ? `-${out}` : out;
}

const credits = madeOnce(() => new Intl.NumberFormat('en-GB', { maximumFractionDigits: 2 }));

/** A credit balance: '1,250' or '12.5'. */
export function formatCredits(amount: number): string {
  return groupedInteger(amount) ?? credits().format(amount);
}

const count = madeOnce(() => new Intl.NumberFormat('en-GB'));

/** A count of things: '10,000'. */
export function formatCount(n: number): string {
  return groupedInteger(n) ?? count().format(n);
}

/**
 * A count and its noun, agreeing in number, the count grouped as formatCount groups it: countOf(1, 'ticket') →
 * '1 ticket', countOf(10026, 'ticket') → '10,026 tickets'. English has one singular, for exactly 1 (0 takes the plural).
 */
export function countOf(n: number, one: string, other = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : other}`;
}

/** Credits and the word, agreeing: '1 credit', '1,250 credits', '12.5 credits'. */
export function creditsOf(amount: number): string {
  return `${formatCredits(amount)} ${amount === 1 ? 'credit' : 'credits'}`;
}

/** Whole percent of `part` in `total`, 0 when there is nothing to divide: percentOf(1, 3) → 33. */
export function percentOf(part: number, total: number): number {
  if (!Number.isFinite(part) || !Number.isFinite(total) || total <= 0) return 0;
  return Math.round((part / total) * 100);
}

/**
 * `part` of `total` as a person reads a share: whole percent, but never a rounding that says none or all when that is
 * not so — some but under half a percent is '<1%', all but a sliver '>99%'; '0%' only for none (or nothing to divide)
 * and '100%' only for all.
 */
export function formatShare(part: number, total: number): string {
  if (!Number.isFinite(part) || !Number.isFinite(total) || total <= 0 || part <= 0) return '0%';
  if (part >= total) return '100%';
  const percent = percentOf(part, total);
  if (percent < 1) return '<1%';
  if (percent > 99) return '>99%';
  return `${percent}%`;
}

const minutesAgo = madeOnce(() => new Intl.RelativeTimeFormat('en-GB', { style: 'short', numeric: 'always' }));

/** How long ago, in whole minutes, en-GB: '5 min ago'; under a minute 'just now'. */
export function formatMinutesAgo(minutes: number): string {
  const whole = Math.floor(minutes);
  if (!Number.isFinite(whole) || whole < 1) return 'just now';
  return minutesAgo().format(-whole, 'minute');
}
