import {
  AUDIT_EVENT_KINDS,
  AUDIT_EVENT_TYPES,
  AUDIT_KINDS,
  AUDIT_PAGE_SIZE,
  AUDIT_STATUSES,
  MAX_AUDIT_PAGE_SIZE,
  routes,
  type AuditEventType,
  type AuditKind,
  type AuditStatus,
} from '@seatlink/contracts';
import { routeUrl, type QueryValues } from '../../lib/api-client';
import { formatCount, formatDateTime, madeOnce } from '../../lib/format';
import { instantOf, localDateTimeOf, parseLocalDateTime } from '../../lib/local-date-time';

/**
 * The user audit log's filter set (docs/reference.md "Audit entry", "Audit filter transitions", "Admin form rules",
 * "Limits and constants"): pure rules of how it changes, what its chips say, what it asks the server, and how it is
 * kept in local storage.
 */

/** docs/reference.md "Audit entry": the filter set is kept in local storage under one key for user audit filters. */
export const AUDIT_FILTERS_STORAGE_KEY = 'userAuditFilters';
/** docs/reference.md "Admin form rules": text filters apply 300 ms after the last keystroke. */
export const AUDIT_TEXT_DEBOUNCE_MS = 300;

/**
 * Which date range applies. 'default' is one month ago to now (docs/reference.md "Limits and constants"); the quick
 * ranges roll with the clock (Last 7 days means the seven days before each load); 'custom' is what the From and To
 * pickers say.
 */
export type RangePreset = 'default' | 'last24h' | 'last7d' | 'last30d' | 'lastMonth' | 'custom';

/** The quick date ranges, in the order shown (docs/reference.md "User Audit Log screen"). */
export const QUICK_RANGES: ReadonlyArray<{ id: Exclude<RangePreset, 'default' | 'custom'>; label: string }> = [
  { id: 'last24h', label: 'Last 24 hours' },
  { id: 'last7d', label: 'Last 7 days' },
  { id: 'last30d', label: 'Last 30 days' },
  { id: 'lastMonth', label: 'Last month' },
];

export interface AuditFilters {
  range: RangePreset;
  /**
   * Local dates and times as ISO text without a zone ('2026-11-22T10:30:00', as the pickers' values write themselves,
   * so the set stays plain JSON for local storage); with a preset range they hold its bounds when it was chosen ('' =
   * open).
   */
  startDate: string;
  endDate: string;
  eventTypes: AuditEventType[];
  /** What the entries move: money, access, links (none: all). */
  kinds: AuditKind[];
  status: AuditStatus[];
  ticketId: string;
  distributionId: string;
  ipAddress: string;
  limit: number;
  offset: number;
}

const KINDS = Object.keys(AUDIT_KINDS) as AuditKind[];

/** The kinds, in the order their buttons show. */
export const KIND_OPTIONS = KINDS.map((value) => ({ value, label: AUDIT_KINDS[value] }));

/** Every event type, grouped by its kind (Links, Money, Access), in the contracts' order within each. */
export const EVENT_TYPE_OPTIONS = (['links', 'money', 'access'] as const).flatMap((kind) =>
  (Object.keys(AUDIT_EVENT_TYPES) as AuditEventType[])
    .filter((type) => AUDIT_EVENT_KINDS[type] === kind)
    .map((value) => ({ value, label: AUDIT_EVENT_TYPES[value], group: AUDIT_KINDS[kind] })),
);

export interface DateRange {
  start: Date | null;
  end: Date | null;
}

function monthsBefore(now: Date, months: number): Date {
  const d = new Date(now);
  const day = d.getDate();
  d.setDate(1);
  d.setMonth(d.getMonth() - months);
  // 31 March minus a month is the last day of February, not 3 March.
  const lastDay = new Date(d.getFullYear(), d.getMonth() + 1, 0).getDate();
  d.setDate(Math.min(day, lastDay));
  return d;
}

/** The instants a preset covers at `now` (the local calendar for 'Last month': the whole previous month). */
export function presetRange(preset: Exclude<RangePreset, 'custom'>, now: number): DateRange {
  const at = new Date(now);
  switch (preset) {
    case 'default':
      return { start: monthsBefore(at, 1), end: at };
    case 'last24h':
      return { start: new Date(now - 24 * 60 * 60 * 1000), end: at };
    case 'last7d':
      return { start: new Date(now - 7 * 24 * 60 * 60 * 1000), end: at };
    case 'last30d':
      return { start: new Date(now - 30 * 24 * 60 * 60 * 1000), end: at };
    case 'lastMonth': {
      const start = new Date(at.getFullYear(), at.getMonth() - 1, 1);
      const end = new Date(new Date(at.getFullYear(), at.getMonth(), 1).getTime() - 1);
      return { start, end };
    }
  }
}

/** The range the filters cover now: a preset resolved at `now`, or the custom fields (an empty one is open). */
export function resolveRange(filters: Pick<AuditFilters, 'range' | 'startDate' | 'endDate'>, now: number): DateRange {
  if (filters.range !== 'custom') return presetRange(filters.range, now);
  return { start: instantOfText(filters.startDate), end: instantOfText(filters.endDate) };
}

function instantOfText(text: string): Date | null {
  const value = parseLocalDateTime(text);
  return value ? instantOf(value) : null;
}

// Made at its first use (lib/format.ts madeOnce): this module is loaded by every signed-in page.
const dayMonthYear = madeOnce(
  () => new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric' }),
);

/**
 * The calendar days a preset covers, when its name does not say them: 'Last month' is the previous calendar month
 * ('1 Oct 2026 – 31 Oct 2026'); null for the rolling ranges.
 */
export function presetDays(preset: RangePreset, now: number): string | null {
  if (preset !== 'lastMonth') return null;
  const { start, end } = presetRange(preset, now);
  return start && end ? `${dayMonthYear().format(start)} – ${dayMonthYear().format(end)}` : null;
}

function withPreset(preset: Exclude<RangePreset, 'custom'>, now: number) {
  const { start, end } = presetRange(preset, now);
  return {
    range: preset,
    startDate: start ? localDateTimeOf(start).toString() : '',
    endDate: end ? localDateTimeOf(end).toString() : '',
  };
}

/**
 * The defaults (docs/reference.md "Limits and constants"): one month ago to now, every type and status, no text, page
 * size 50 from offset 0.
 */
export function defaultAuditFilters(now: number): AuditFilters {
  return {
    ...withPreset('default', now),
    eventTypes: [],
    kinds: [],
    status: [],
    ticketId: '',
    distributionId: '',
    ipAddress: '',
    limit: AUDIT_PAGE_SIZE,
    offset: 0,
  };
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((v, i) => v === b[i]);

/**
 * docs/reference.md "Audit filter transitions": any change but the offset's puts the offset back to 0 (a new filter
 * starts on its first page). A patch that changes nothing changes nothing.
 */
export function updateAuditFilters(filters: AuditFilters, patch: Partial<AuditFilters>): AuditFilters {
  const next = { ...filters, ...patch };
  const changed = (Object.keys(patch) as Array<keyof AuditFilters>).some((key) => {
    if (key === 'offset') return false;
    const before = filters[key];
    const after = next[key];
    return Array.isArray(before) && Array.isArray(after) ? !sameList(before, after) : before !== after;
  });
  if (changed) next.offset = 0;
  return next;
}

/** A quick range (or the default one) chosen: its bounds fill the date fields; the offset goes back to 0. */
export function applyPreset(filters: AuditFilters, preset: Exclude<RangePreset, 'custom'>, now: number): AuditFilters {
  return { ...updateAuditFilters(filters, withPreset(preset, now)), offset: 0 };
}

/** A date picked or typed in From or To: the range becomes custom, from what both fields say. */
export function setCustomDate(filters: AuditFilters, field: 'startDate' | 'endDate', value: string): AuditFilters {
  return updateAuditFilters(filters, { range: 'custom', [field]: value });
}

/** The next or previous page: the only change that keeps the rest (docs/reference.md "Audit filter transitions"). */
export function pageTo(filters: AuditFilters, direction: 'next' | 'previous'): AuditFilters {
  const offset = direction === 'next' ? filters.offset + filters.limit : Math.max(0, filters.offset - filters.limit);
  return updateAuditFilters(filters, { offset });
}

// ---- Chips ----------------------------------------------------------------------------------------------------------

export type ChipKey = 'range' | 'status' | 'eventTypes' | 'kinds' | 'ticketId' | 'distributionId' | 'ipAddress';

export interface FilterChip {
  key: ChipKey;
  /** 'Status: FAILED', 'Event Time: Last 7 days'. */
  label: string;
}

function rangeLabel(filters: AuditFilters, now: number): string {
  const quick = QUICK_RANGES.find((q) => q.id === filters.range);
  if (quick) {
    const days = presetDays(quick.id, now);
    return days ? `${quick.label} (${days})` : quick.label;
  }
  const start = instantOfText(filters.startDate);
  const end = instantOfText(filters.endDate);
  if (start && end) return `${formatDateTime(start)} – ${formatDateTime(end)}`;
  if (start) return `from ${formatDateTime(start)}`;
  if (end) return `until ${formatDateTime(end)}`;
  return 'any time';
}

/**
 * The active-filter chips (docs/reference.md "User Audit Log screen"), one per filter that differs from its default, in
 * column order; `now` names the days of 'Last month'.
 */
export function filterChips(filters: AuditFilters, now: number = Date.now()): FilterChip[] {
  const chips: FilterChip[] = [];
  if (filters.range !== 'default') chips.push({ key: 'range', label: `Event Time: ${rangeLabel(filters, now)}` });
  if (filters.status.length > 0) chips.push({ key: 'status', label: `Status: ${filters.status.join(', ')}` });
  if (filters.eventTypes.length > 0) {
    chips.push({
      key: 'eventTypes',
      label: `Event Type: ${filters.eventTypes.map((t) => AUDIT_EVENT_TYPES[t]).join(', ')}`,
    });
  }
  if (filters.kinds.length > 0) {
    chips.push({ key: 'kinds', label: `Kind: ${filters.kinds.map((k) => AUDIT_KINDS[k]).join(', ')}` });
  }
  if (filters.ticketId.trim()) chips.push({ key: 'ticketId', label: `Ticket ID: ${filters.ticketId.trim()}` });
  if (filters.distributionId.trim()) {
    chips.push({ key: 'distributionId', label: `Distribution ID: ${filters.distributionId.trim()}` });
  }
  if (filters.ipAddress.trim()) chips.push({ key: 'ipAddress', label: `IP Address: ${filters.ipAddress.trim()}` });
  return chips;
}

export function hasActiveFilters(filters: AuditFilters): boolean {
  return filterChips(filters).length > 0;
}

/**
 * docs/reference.md "Audit filter transitions": removing a chip empties that filter (the date range back to its
 * default) and resets the offset.
 */
export function removeChip(filters: AuditFilters, key: ChipKey, now: number): AuditFilters {
  const emptied: Partial<AuditFilters> =
    key === 'range'
      ? withPreset('default', now)
      : key === 'status' || key === 'eventTypes' || key === 'kinds'
        ? { [key]: [] }
        : { [key]: '' };
  return { ...filters, ...emptied, offset: 0 };
}

/** docs/reference.md "Audit filter transitions": Clear all restores the defaults. */
export function clearAllFilters(now: number): AuditFilters {
  return defaultAuditFilters(now);
}

// ---- What the server is asked ---------------------------------------------------------------------------------------

/**
 * The audit query (docs/reference.md "API calls"): start_date and end_date as ISO, repeated event_type, kind and
 * status, the text filters (ids lower-cased: they are stored as lower-case UUIDs, and the server matches what a value
 * starts with, case and all), limit and offset.
 */
export function auditQuery(filters: AuditFilters, now: number, { paged = true } = {}): QueryValues {
  const { start, end } = resolveRange(filters, now);
  const text = (value: string) => value.trim() || undefined;
  return {
    start_date: start?.toISOString(),
    end_date: end?.toISOString(),
    event_type: filters.eventTypes,
    kind: filters.kinds,
    status: filters.status,
    ticket_id: text(filters.ticketId)?.toLowerCase(),
    distribution_id: text(filters.distributionId)?.toLowerCase(),
    ip_address: text(filters.ipAddress),
    ...(paged ? { limit: filters.limit, offset: filters.offset } : {}),
  };
}

/** The CSV export's address: the whole filtered view (every page), as a download. */
export function auditCsvUrl(userId: string, filters: AuditFilters, now: number): string {
  return routeUrl(routes.adminUserAuditsCsv, { id: userId }, auditQuery(filters, now, { paged: false }));
}

// ---- Paging ---------------------------------------------------------------------------------------------------------

/** 'Showing X to Y entries' (docs/reference.md "User Audit Log screen") for a page of `count` rows at `offset`. */
export function showingLabel(offset: number, count: number): string {
  return count === 0
    ? 'Showing 0 to 0 entries'
    : `Showing ${formatCount(offset + 1)} to ${formatCount(offset + count)} entries`;
}

/**
 * docs/reference.md "Limits and constants": previous is disabled at offset 0; next when fewer than `limit` rows came
 * back.
 */
export function pagingState(filters: Pick<AuditFilters, 'offset' | 'limit'>, count: number) {
  return { canPrevious: filters.offset > 0, canNext: count >= filters.limit };
}

// ---- Local storage --------------------------------------------------------------------------------------------------

const PRESETS: readonly RangePreset[] = ['default', 'last24h', 'last7d', 'last30d', 'lastMonth', 'custom'];
const MAX_TEXT = 100;

type StorageLike = Pick<Storage, 'getItem' | 'setItem'>;

/** Writes the filter set under AUDIT_FILTERS_STORAGE_KEY; a full or refused storage is ignored. */
export function saveAuditFilters(storage: StorageLike | undefined, filters: AuditFilters): void {
  try {
    storage?.setItem(AUDIT_FILTERS_STORAGE_KEY, JSON.stringify(filters));
  } catch {
    // Private mode or a full quota: the filters just are not remembered.
  }
}

/**
 * The filter set kept in storage, each field checked (a field that is missing or not what it should be takes its
 * default), or the defaults when there is none. A preset range is resolved again at `now`.
 */
export function loadAuditFilters(storage: StorageLike | undefined, now: number): AuditFilters {
  const defaults = defaultAuditFilters(now);
  let raw: unknown;
  try {
    const text = storage?.getItem(AUDIT_FILTERS_STORAGE_KEY);
    raw = text ? (JSON.parse(text) as unknown) : null;
  } catch {
    raw = null;
  }
  if (typeof raw !== 'object' || raw === null) return defaults;
  const stored = raw as Record<string, unknown>;
  const text = (value: unknown) => (typeof value === 'string' && value.length <= MAX_TEXT ? value : '');
  const dateValue = (value: unknown) => (typeof value === 'string' && parseLocalDateTime(value) ? value : '');
  const subset = <T extends string>(value: unknown, allowed: readonly T[]): T[] =>
    Array.isArray(value) ? allowed.filter((a) => value.includes(a)) : [];
  const whole = (value: unknown, min: number, max: number, fallback: number) =>
    typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max ? value : fallback;

  const range = PRESETS.includes(stored.range as RangePreset) ? (stored.range as RangePreset) : 'default';
  const dates =
    range === 'custom'
      ? { range, startDate: dateValue(stored.startDate), endDate: dateValue(stored.endDate) }
      : withPreset(range, now);
  return {
    ...dates,
    eventTypes: subset(stored.eventTypes, Object.keys(AUDIT_EVENT_TYPES) as AuditEventType[]),
    kinds: subset(stored.kinds, KINDS),
    status: subset(stored.status, AUDIT_STATUSES),
    ticketId: text(stored.ticketId),
    distributionId: text(stored.distributionId),
    ipAddress: text(stored.ipAddress),
    limit: whole(stored.limit, 1, MAX_AUDIT_PAGE_SIZE, defaults.limit),
    offset: whole(stored.offset, 0, 10_000_000, 0),
  };
}
