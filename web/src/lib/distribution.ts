import {
  DEFAULT_DISTRIBUTION_COST,
  DISTRIBUTION_MESSAGES,
  hasClickLimit,
  hasForbiddenCharacters,
  letsSeveralSave,
  LINK_PIN_PATTERN,
  linkState,
  MAX_LINK_CLICKS,
  SEAT_SHARING_WARNING,
  MAX_LINK_LABEL,
  MAX_LINK_EXPIRY_MS,
  MIN_LINK_EXPIRY_MS,
  type DistributeRequest,
  type DistributionResult,
  type LinkRecipient,
  type TicketDistribution,
} from '@seatlink/contracts';
import type { CalendarDateTime } from '@internationalized/date';
import { countOf, creditsOf, formatCount, formatCredits, localFormat, madeOnce } from './format';
import { ceilToMinute, instantOf, localDateTimeOf } from './local-date-time';

/**
 * The rules of distribution links that more than one screen shows (the tickets overview, the account tickets page):
 * docs/reference.md "Tickets Overview screen", "Distribution Settings dialog", "Link states", "Link rules", the texts
 * ("Fallback texts", "Success and empty texts") and "Limits and constants". Pure: the time comes in as `now`.
 */

/** User-facing texts, exactly (docs/reference.md "Tickets Overview screen", "Link rules", "Fallback texts"). */
export const DISTRIBUTION_TEXTS = {
  noneEligibleLabel: 'Distribute',
  oneLabel: 'Generate Link',
  manyLabel: 'Generate Links',
  allDuplicates: 'All selected are duplicates',
  noneEligible: 'Selected tickets are already distributed or duplicates',
  noValidTickets: DISTRIBUTION_MESSAGES.noTickets,
  distributing: 'Distributing...',
  noLink: 'No distribution link generated',
  limitReached: 'Limit Reached',
  expired: 'Expired',
  never: 'Never',
  linkCopied: 'Link copied!',
  copyFailed: 'Failed to copy link',
  recalled: 'Ticket recalled',
  recallFailed: 'Failed to recall ticket',
  recallFailedToast: 'Failed to recall',
  /** Said in the recall confirmation: a recall withdraws the link and gives nothing back. */
  recallKeepsCredits: 'The credits spent on the link are not given back.',
  distributeFailed: 'Failed to generate distribution link',
  distributeFailedToast: 'Failed to generate distribution links',
  unlimitedHelper: 'Link has unlimited clicks',
  balanceWarning: 'Your balance will be deducted after the links have been generated.',
  editLink: 'Edit Link',
  linkUpdated: DISTRIBUTION_MESSAGES.updated,
  updateFailed: 'Failed to update link',
  nothingChanged: 'Nothing changed',
  chooseSomething: 'Tick what to change: the expiry, the usage limit, the label or the PIN',
  pinOrRemove: 'Enter the new PIN, or tick Remove the PIN',
  recallFailedMany: 'Failed to recall links',
  /** Under the usage limit, and beside a live link, when more than one person can save the seat with it. */
  seatSharing: SEAT_SHARING_WARNING,
} as const;

// The counts below agree with their nouns and are grouped ('1 ticket', '10,026 tickets': lib/format.ts countOf).

/** 'Need {n} credits (have {m})' (docs/reference.md "Link rules"). */
export function needCreditsText(needed: number, balance: number): string {
  return `Need ${creditsOf(needed)} (have ${formatCredits(balance)})`;
}

/** 'Successfully started distribution for {n} tickets.' (docs/reference.md "Success and empty texts", exactly). */
export function distributionStartedText(count: number): string {
  return `Successfully started distribution for ${countOf(count, 'ticket')}.`;
}

/** 'Link will expire after N clicks' (docs/reference.md "Distribution Settings dialog", exactly). */
export function clickLimitHelper(maxClicks: number): string {
  return `Link will expire after ${countOf(maxClicks, 'click')}`;
}

/** 'Configure distribution settings for N tickets' (docs/reference.md "Distribution Settings dialog", exactly). */
export function distributionSubtitle(count: number): string {
  return `Configure distribution settings for ${countOf(count, 'ticket')}`;
}

/** The settings dialog's submit: 'Generate Link' for one ticket, 'Generate Links' for more. */
export function generateLinksLabel(count: number): string {
  return count === 1 ? DISTRIBUTION_TEXTS.oneLabel : DISTRIBUTION_TEXTS.manyLabel;
}

// ---- Links ---------------------------------------------------------------------------------------------------------

/** docs/reference.md "Limits and constants": a link preview is cut to its first 30 characters. */
export const LINK_PREVIEW_LENGTH = 30;

/** The link's first 30 characters, with '...' when it was longer. */
export function linkPreview(link: string): string {
  return link.length > LINK_PREVIEW_LENGTH ? `${link.slice(0, LINK_PREVIEW_LENGTH)}...` : link;
}

export type LinkFacts = Pick<TicketDistribution, 'clicks' | 'max_clicks' | 'expiry'>;

/** docs/reference.md "Link": max_clicks null or 0 means unlimited. */
export function isUnlimited(maxClicks: number | null | undefined): boolean {
  return !hasClickLimit(maxClicks);
}

/** Clicks used out of the limit: '3 / 10', or '3 / ∞' for an unlimited link. */
export function clicksLabel(link: Pick<LinkFacts, 'clicks' | 'max_clicks'>): string {
  return `${formatCount(link.clicks)} / ${isUnlimited(link.max_clicks) ? '∞' : formatCount(link.max_clicks!)}`;
}

// A card shows each badge on its own (an expired link at its limit shows both), so each asks the link-state rule
// about its one fact.

/** docs/reference.md "Link states": Limit Reached when max_clicks is above 0 and the clicks are at or above it. */
export function isLimitReached(link: Pick<LinkFacts, 'clicks' | 'max_clicks'>): boolean {
  return (
    linkState({ recalled: false, expiresAt: null, maxClicks: link.max_clicks, clicks: link.clicks }, 0) ===
    'limit_reached'
  );
}

/** docs/reference.md "Link states": Expired when the expiry is in the past. */
export function isExpired(link: Pick<LinkFacts, 'expiry'>, now: number): boolean {
  return linkState({ recalled: false, expiresAt: link.expiry, maxClicks: null, clicks: 0 }, now) === 'expired';
}

const expiryFormat = (timeZone?: string) =>
  new Intl.DateTimeFormat('en-GB', {
    day: '2-digit',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone,
  });
// Made at its first use (lib/format.ts madeOnce): the first date format a page makes loads the locale's data.
const localExpiryFormat = madeOnce(() => expiryFormat());

/**
 * docs/reference.md "Tickets Overview screen": the expiry as day, short month and 24-hour time ('05 Dec, 09:30'), or
 * 'Never'.
 */
export function formatLinkExpiry(expiry: string | null | undefined, { timeZone }: { timeZone?: string } = {}): string {
  if (!expiry) return DISTRIBUTION_TEXTS.never;
  const at = new Date(expiry);
  if (Number.isNaN(at.getTime())) return DISTRIBUTION_TEXTS.never;
  if (localFormat.accepts(at, timeZone)) return localFormat.dayMonthTime(at);
  return (timeZone ? expiryFormat(timeZone) : localExpiryFormat()).format(at);
}

// ---- The distribute button (docs/reference.md "Tickets Overview screen", "Link rules") ------------------------------

export interface SelectableTicket {
  id: string;
  is_duplicate: boolean;
  is_distributed: boolean;
}

export interface DistributeButtonState {
  /** 'Distribute' (none eligible), 'Generate Link' (1), 'Generate Links' (n). */
  label: string;
  disabled: boolean;
  /** Why it is disabled (its tooltip), null when enabled. */
  reason: string | null;
  /** The selected tickets that are neither distributed nor duplicate: the ones sent. */
  eligibleIds: string[];
  /** Credits the eligible tickets cost. */
  cost: number;
}

/** The user's own distribution_cost, else the default of 5 (docs/reference.md "Limits and constants"). */
export function distributionCostOf(user: { distribution_cost?: number | null } | null | undefined): number {
  const cost = user?.distribution_cost;
  return typeof cost === 'number' && Number.isFinite(cost) && cost >= 0 ? cost : DEFAULT_DISTRIBUTION_COST;
}

/**
 * The bottom bar's distribute button for a selection. Only tickets neither distributed nor duplicate are sent; the
 * button is disabled when none is, or when the balance is below their count times the cost per ticket.
 */
export function distributeButtonState(
  selected: readonly SelectableTicket[],
  balance: number,
  costPerTicket: number,
): DistributeButtonState {
  const eligibleIds = selected.filter((t) => !t.is_duplicate && !t.is_distributed).map((t) => t.id);
  const count = eligibleIds.length;
  const cost = count * costPerTicket;
  const label =
    count === 0
      ? DISTRIBUTION_TEXTS.noneEligibleLabel
      : count === 1
        ? DISTRIBUTION_TEXTS.oneLabel
        : DISTRIBUTION_TEXTS.manyLabel;
  let reason: string | null = null;
  if (selected.length === 0) reason = DISTRIBUTION_TEXTS.noValidTickets;
  else if (count === 0)
    reason = selected.every((t) => t.is_duplicate) ? DISTRIBUTION_TEXTS.allDuplicates : DISTRIBUTION_TEXTS.noneEligible;
  else if (balance < cost) reason = needCreditsText(cost, balance);
  return { label, disabled: reason !== null, reason, eligibleIds, cost };
}

// ---- The Distribution Settings modal (docs/reference.md "Distribution Settings dialog", "Link rules") ---------------

/** What the modal's fields hold. */
export interface DistributionSettingsDraft {
  /** The expiry as picked (a local date and time), null for none. */
  expiry: CalendarDateTime | null;
  /** The expiry field holds a date typed in part: not yet a date, yet not empty either. */
  expiryPartial: boolean;
  unlimited: boolean;
  /** The number input's text; read only when `unlimited` is off. */
  maxClicks: string;
  /** The label's text ("for Sam"); empty for none. */
  label: string;
  /** A new PIN's digits; empty: none (a new link), or the PIN as it is (a link being edited). */
  pin: string;
  /** Take the PIN off (a link being edited that has one). */
  removePin: boolean;
}

/**
 * What the modal yields: expiryDate (ISO or null), maxClicks (null when unlimited, otherwise an integer) and the label
 * (trimmed; null for none).
 */
export interface DistributionSettings {
  expiryDate: string | null;
  maxClicks: number | null;
  label: string | null;
  /** A new PIN; null: none (take it off); absent: as it is (none, for a new link). */
  pin?: string | null;
  /** Whom new links are for, by ticket id (a ticket absent: nobody named). */
  recipients?: Readonly<Record<string, LinkRecipient>>;
  /** Edit Link: whom the link is for now (null: nobody); absent: as it is. */
  recipient?: LinkRecipient | null;
}

export interface DistributionSettingsErrors {
  expiry?: string;
  maxClicks?: string;
  label?: string;
  pin?: string;
}

export const SETTINGS_MESSAGES = {
  expiryInvalid: 'Enter a valid date and time, or clear the field for a link that does not expire',
  expiryTooSoon: 'Link expiry must be at least one hour from now',
  expiryTooLate: DISTRIBUTION_MESSAGES.expiryTooLate,
  maxClicksRequired: 'Enter the maximum number of clicks, or turn on Unlimited access',
  maxClicksWhole: 'Max clicks must be a whole number of at least 1',
  // Written when it is read: a number's toLocaleString makes a formatter each time, and made as this module loaded
  // it was the longest task of the dashboard's start on a phone (the first formatter loads the locale's data).
  get maxClicksTooMany() {
    return `Max clicks can be at most ${formatCount(MAX_LINK_CLICKS)}`;
  },
  maxClicksBelowClicks: DISTRIBUTION_MESSAGES.limitBelowClicks,
  labelTooLong: DISTRIBUTION_MESSAGES.labelTooLong,
  labelNotAllowed: 'Label contains characters that are not allowed',
  pinFormat: 'A PIN is 4 to 8 digits',
} as const;

export const EMPTY_SETTINGS_DRAFT: DistributionSettingsDraft = {
  expiry: null,
  expiryPartial: false,
  unlimited: true,
  maxClicks: '',
  label: '',
  pin: '',
  removePin: false,
};

/** POST /v1/tickets/distribute's body: these tickets, with the modal's settings. */
export function distributeBody(ticketIds: readonly string[], settings: DistributionSettings): DistributeRequest {
  return {
    ticket_ids: [...ticketIds],
    expiry_date: settings.expiryDate,
    max_clicks: settings.maxClicks,
    label: settings.label,
    pin: settings.pin ?? null,
    ...(settings.recipients
      ? {
          recipients: ticketIds
            .filter((id) => settings.recipients?.[id])
            .map((id) => ({ ticket_id: id, ...settings.recipients![id]! })),
        }
      : {}),
  };
}

/** A link just made, as its ticket shows it at once (the next read of the list confirms it). */
export function madeLink(made: DistributionResult, settings: DistributionSettings): TicketDistribution {
  return {
    distribution_id: made.distribution_id,
    id: made.distribution_id,
    link: made.link,
    clicks: 0,
    max_clicks: settings.maxClicks,
    expiry: settings.expiryDate,
    label: settings.label,
    has_pin: typeof settings.pin === 'string',
    pin_locked: false,
    claimed_by: null,
    recipient: settings.recipients?.[made.ticket_id] ?? null,
  };
}

/**
 * 'When the event starts': the expiry a link of a ticket with a next game may take (its start, to the minute the picker
 * has), when that start can be a link's expiry (an hour ahead or more, within five years); null otherwise.
 */
export function eventStartExpiry(nextGameDate: string | null | undefined, now: number): string | null {
  const at = nextGameDate ? Date.parse(nextGameDate) : Number.NaN;
  if (!Number.isFinite(at)) return null;
  const minute = Math.floor(at / 60_000) * 60_000;
  if (minute < now + MIN_LINK_EXPIRY_MS || minute > now + MAX_LINK_EXPIRY_MS) return null;
  return new Date(minute).toISOString();
}

/** The one next-game start all these tickets share, or null (none, or not the same). */
export function sharedEventStart(
  tickets: ReadonlyArray<{ metadata?: { next_game_date: string | null } | null }>,
): string | null {
  const starts = new Set(tickets.map((t) => t.metadata?.next_game_date ?? null));
  const [only] = starts;
  return starts.size === 1 && only ? only : null;
}

/** The fields of the edit modal as a live link has them (its expiry in this device's time). */
export function draftOfLink(
  link: Pick<TicketDistribution, 'expiry' | 'max_clicks' | 'label'>,
): DistributionSettingsDraft {
  const expiry = link.expiry ? new Date(link.expiry) : null;
  return {
    expiry: expiry && !Number.isNaN(expiry.getTime()) ? localDateTimeOf(expiry) : null,
    expiryPartial: false,
    unlimited: isUnlimited(link.max_clicks),
    maxClicks: isUnlimited(link.max_clicks) ? '' : String(link.max_clicks),
    label: link.label ?? '',
    pin: '',
    removePin: false,
  };
}

/** PATCH /v1/distributions/{id}'s body: only what differs from the link as it is (null removes); empty: no change. */
export function linkChanges(
  link: Pick<TicketDistribution, 'expiry' | 'max_clicks' | 'label' | 'has_pin'> &
    Partial<Pick<TicketDistribution, 'recipient'>>,
  settings: DistributionSettings,
): {
  expiry_date?: string | null;
  max_clicks?: number | null;
  label?: string | null;
  pin?: string | null;
  recipient?: LinkRecipient | null;
} {
  const changes: {
    expiry_date?: string | null;
    max_clicks?: number | null;
    label?: string | null;
    pin?: string | null;
    recipient?: LinkRecipient | null;
  } = {};
  if (settings.recipient !== undefined) {
    const was = link.recipient ?? null;
    const now = settings.recipient;
    if ((was?.name ?? null) !== (now?.name ?? null) || (was?.email ?? null) !== (now?.email ?? null)) {
      changes.recipient = now;
    }
  }
  const was = link.expiry ? Date.parse(link.expiry) : null;
  const wanted = settings.expiryDate ? Date.parse(settings.expiryDate) : null;
  // The picker has minutes: an expiry kept as it was reads back as the same minute.
  if (was === null ? wanted !== null : wanted === null || Math.floor(was / 60_000) !== Math.floor(wanted / 60_000)) {
    changes.expiry_date = settings.expiryDate;
  }
  const limit = hasClickLimit(link.max_clicks) ? link.max_clicks : null;
  if (limit !== settings.maxClicks) changes.max_clicks = settings.maxClicks;
  if ((link.label ?? null) !== settings.label) changes.label = settings.label;
  // A new PIN is always a change (it replaces the one there, and unlocks the link); taking none off is none.
  if (settings.pin !== undefined && (settings.pin !== null || link.has_pin)) changes.pin = settings.pin;
  return changes;
}

/** The earliest expiry the field offers: one hour from now, up to the next whole minute (the field has minutes). */
export function minExpiryValue(now: number): CalendarDateTime {
  return localDateTimeOf(ceilToMinute(now + MIN_LINK_EXPIRY_MS));
}

/** The latest expiry the field offers (the server takes up to five years). */
export function maxExpiryValue(now: number): CalendarDateTime {
  return localDateTimeOf(now + MAX_LINK_EXPIRY_MS - 24 * 60 * 60 * 1000);
}

/** The click limit the number input holds, or null when it holds no whole number of at least 1. */
export function parseMaxClicks(text: string): number | null {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return null;
  const value = Number(trimmed);
  return Number.isSafeInteger(value) && value >= 1 ? value : null;
}

/**
 * Checks the modal's fields before anything is sent. The expiry may be left empty; set, it must be at least an hour
 * ahead (a minute of grace, as the server gives, for the time the form stays open) and within five years — unless it
 * is the expiry a link being edited already has (`keptExpiry`), which is not sent. The click limit counts only with
 * Unlimited access off: then a whole number from 1 to MAX_LINK_CLICKS, and not below the clicks a link being edited
 * has counted (`clicks`). The label: at most MAX_LINK_LABEL characters, none that no text field takes.
 */
export function validateDistributionSettings(
  draft: DistributionSettingsDraft,
  now: number,
  editing: { clicks: number; keptExpiry: string | null } | null = null,
): { ok: true; value: DistributionSettings } | { ok: false; errors: DistributionSettingsErrors } {
  const errors: DistributionSettingsErrors = {};
  let expiryDate: string | null = null;
  if (draft.expiryPartial) errors.expiry = SETTINGS_MESSAGES.expiryInvalid;
  else if (draft.expiry) {
    const at = instantOf(draft.expiry);
    const kept = editing?.keptExpiry ? Date.parse(editing.keptExpiry) : null;
    if (kept !== null && Math.floor(kept / 60_000) === Math.floor(at.getTime() / 60_000)) {
      expiryDate = editing!.keptExpiry;
    } else if (at.getTime() < now + MIN_LINK_EXPIRY_MS - 60_000) errors.expiry = SETTINGS_MESSAGES.expiryTooSoon;
    else if (at.getTime() > now + MAX_LINK_EXPIRY_MS) errors.expiry = SETTINGS_MESSAGES.expiryTooLate;
    else expiryDate = at.toISOString();
  }
  let maxClicks: number | null = null;
  if (!draft.unlimited) {
    const text = draft.maxClicks.trim();
    const value = parseMaxClicks(text);
    if (text === '') errors.maxClicks = SETTINGS_MESSAGES.maxClicksRequired;
    else if (value === null) errors.maxClicks = SETTINGS_MESSAGES.maxClicksWhole;
    else if (value > MAX_LINK_CLICKS) errors.maxClicks = SETTINGS_MESSAGES.maxClicksTooMany;
    else if (editing && value < editing.clicks)
      errors.maxClicks = SETTINGS_MESSAGES.maxClicksBelowClicks(editing.clicks);
    else maxClicks = value;
  }
  const label = draft.label.trim();
  if ([...label].length > MAX_LINK_LABEL) errors.label = SETTINGS_MESSAGES.labelTooLong;
  else if (hasForbiddenCharacters(label)) errors.label = SETTINGS_MESSAGES.labelNotAllowed;
  const pinText = draft.pin.trim();
  if (!draft.removePin && pinText !== '' && !LINK_PIN_PATTERN.test(pinText)) errors.pin = SETTINGS_MESSAGES.pinFormat;
  if (errors.expiry || errors.maxClicks || errors.label || errors.pin) return { ok: false, errors };
  const pin = draft.removePin ? { pin: null } : pinText !== '' ? { pin: pinText } : {};
  return { ok: true, value: { expiryDate, maxClicks, label: label === '' ? null : label, ...pin } };
}

/**
 * Whether the usage limit as set lets more than one person save the seat (letsSeveralSave): unlimited, or a limit
 * above 1. A limit not yet a whole number in range says nothing (its field says what is wrong on submit).
 */
export function draftLetsSeveralSave(draft: Pick<DistributionSettingsDraft, 'unlimited' | 'maxClicks'>): boolean {
  if (draft.unlimited) return letsSeveralSave(null);
  const value = parseMaxClicks(draft.maxClicks);
  return value !== null && value <= MAX_LINK_CLICKS && letsSeveralSave(value);
}

/** The helper under the usage limit: 'Link has unlimited clicks' or 'Link will expire after N clicks'. */
export function usageHelper(draft: Pick<DistributionSettingsDraft, 'unlimited' | 'maxClicks'>): string | null {
  if (draft.unlimited) return DISTRIBUTION_TEXTS.unlimitedHelper;
  const value = parseMaxClicks(draft.maxClicks);
  return value === null || value > MAX_LINK_CLICKS ? null : clickLimitHelper(value);
}
