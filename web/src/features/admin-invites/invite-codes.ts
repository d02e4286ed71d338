import { INVITE_MAX_USES, type InviteCode } from '@seatlink/contracts';

/**
 * Colour of an invite code's usage bar (docs/reference.md "Limits and constants"): at least 90 % red, at least 70 %
 * yellow, else green.
 */
export type UsageLevel = 'red' | 'yellow' | 'green';

/** Share of the uses taken, 0 to 100 (not rounded; 0 when max_uses is not positive). */
export function usagePercent(used: number, maxUses: number): number {
  if (!(maxUses > 0) || !(used > 0)) return 0;
  return Math.min(100, (used / maxUses) * 100);
}

export function usageLevel(used: number, maxUses: number): UsageLevel {
  const percent = usagePercent(used, maxUses);
  if (percent >= 90) return 'red';
  if (percent >= 70) return 'yellow';
  return 'green';
}

export type InviteStatus = 'Active' | 'Disabled' | 'Expired';

/** Disabled wins over Expired; a code is expired once its expiry instant has passed. */
export function inviteStatus(invite: Pick<InviteCode, 'enabled' | 'expires_at'>, now: Date = new Date()): InviteStatus {
  if (!invite.enabled) return 'Disabled';
  const expires = Date.parse(invite.expires_at);
  if (Number.isFinite(expires) && expires <= now.getTime()) return 'Expired';
  return 'Active';
}

function isoDate(date: Date): string {
  const y = String(date.getFullYear()).padStart(4, '0');
  const m = String(date.getMonth() + 1).padStart(2, '0');
  const d = String(date.getDate()).padStart(2, '0');
  return `${y}-${m}-${d}`;
}

/** Tomorrow in the browser's local time as YYYY-MM-DD. */
export function tomorrowLocalDate(now: Date = new Date()): string {
  return isoDate(new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1));
}

/**
 * The earliest invite expiry (docs/reference.md "Admin form rules": at least tomorrow): tomorrow here, or tomorrow in
 * UTC when that is later, since the server judges the date in UTC (west of UTC in the evening, UTC is already a day
 * ahead).
 */
export function earliestInviteExpiry(now: Date = new Date()): string {
  const utcTomorrow = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1))
    .toISOString()
    .slice(0, 10);
  const local = tomorrowLocalDate(now);
  return utcTomorrow > local ? utcTomorrow : local;
}

export interface InviteFormValues {
  maxUses: string;
  expiresAt: string;
}

export interface InviteFormErrors {
  maxUses?: string;
  expiresAt?: string;
}

export const INVITE_FORM_MESSAGES = {
  maxUses: `Max uses must be a whole number from ${INVITE_MAX_USES.min} to ${INVITE_MAX_USES.max}`,
  expiryRequired: 'Expiry date is required',
  expiryTooSoon: 'Expiry date must be tomorrow or later',
  expiryFormat: 'Enter the expiry date as dd/mm/yyyy',
} as const;

/**
 * The generate form (docs/reference.md "Admin form rules"): max_uses a whole number 1 to 1000; expiry date required and
 * at least tomorrow. Gives the request body, or the errors per field.
 */
export function validateInviteForm(
  values: InviteFormValues,
  now: Date = new Date(),
): { ok: true; body: { max_uses: number; expires_at: string } } | { ok: false; errors: InviteFormErrors } {
  const errors: InviteFormErrors = {};
  const text = values.maxUses.trim();
  const maxUses = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!(maxUses >= INVITE_MAX_USES.min && maxUses <= INVITE_MAX_USES.max))
    errors.maxUses = INVITE_FORM_MESSAGES.maxUses;

  const expiresAt = values.expiresAt.trim();
  if (!expiresAt) errors.expiresAt = INVITE_FORM_MESSAGES.expiryRequired;
  else if (!isCalendarDate(expiresAt) || expiresAt < earliestInviteExpiry(now)) {
    errors.expiresAt = INVITE_FORM_MESSAGES.expiryTooSoon;
  }

  if (errors.maxUses || errors.expiresAt) return { ok: false, errors };
  return { ok: true, body: { max_uses: maxUses, expires_at: expiresAt } };
}

function isCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The calendar date (YYYY-MM-DD, UTC) on which a code last works. The server stores a date chosen in the form as the
 * end of that UTC day, i.e. the next UTC midnight, so an expiry exactly at UTC midnight names the day before;
 * any other instant names its own UTC date. Null for a missing or unreadable value.
 */
export function inviteLastDay(expiresAt: string): string | null {
  const instant = Date.parse(expiresAt);
  if (!Number.isFinite(instant)) return null;
  const atMidnight = instant % DAY_MS === 0;
  return new Date(atMidnight ? instant - DAY_MS : instant).toISOString().slice(0, 10);
}
