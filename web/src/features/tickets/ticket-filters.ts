import { TICKET_STATUS, type Account, type Ticket } from '@seatlink/contracts';
import { madeOnce } from '../../lib/format';

/**
 * The tickets overview's filters and sort (docs/reference.md "Tickets Overview screen", "Ticket and link transitions"):
 * pure. A list is indexed once (indexTickets: search texts, sort ranks), then every keystroke, filter or sort reads the
 * index, which keeps 10,000 tickets well inside a frame (ticket-filters.unit.spec.ts prints the times).
 */

/** docs/reference.md "Limits and constants": status filter options All, Distributed, Not Distributed. */
export type StatusFilter = 'all' | 'distributed' | 'not-distributed';

export const STATUS_FILTER_OPTIONS: ReadonlyArray<{ value: StatusFilter; label: string }> = [
  { value: 'all', label: 'All Status' },
  { value: 'distributed', label: 'Distributed' },
  { value: 'not-distributed', label: 'Not Distributed' },
];

export interface TicketFilters {
  search: string;
  /** An account id; '' for every account. */
  selectedAccount: string;
  status: StatusFilter;
  /** A ticket title; '' for every event. */
  event: string;
}

export const EMPTY_FILTERS: TicketFilters = { search: '', selectedAccount: '', status: 'all', event: '' };

export function hasActiveFilters(filters: TicketFilters): boolean {
  return (
    filters.search.trim() !== '' || filters.selectedAccount !== '' || filters.status !== 'all' || filters.event !== ''
  );
}

export type TicketStatus = (typeof TICKET_STATUS)[keyof typeof TICKET_STATUS];

/** The display status (docs/reference.md "Ticket"): a duplicate is a duplicate whatever else it is. */
export function ticketStatus(ticket: Pick<Ticket, 'is_duplicate' | 'is_distributed'>): TicketStatus {
  if (ticket.is_duplicate) return TICKET_STATUS.duplicate;
  return ticket.is_distributed ? TICKET_STATUS.distributed : TICKET_STATUS.notDistributed;
}

export const STATUS_LABELS: Record<TicketStatus, string> = {
  [TICKET_STATUS.notDistributed]: 'Not Distributed',
  [TICKET_STATUS.distributed]: 'Distributed',
  [TICKET_STATUS.duplicate]: 'Duplicate',
};

// The text a search looks in, lower-cased once per ticket object: a list read by changes keeps every unchanged
// ticket (the same object), so only the tickets that changed are read again.
const haystacks = new WeakMap<Ticket, string>();

/** Title, subtitle, venue, seat, account e-mail and the link's label, lower-cased: what the search box looks in. */
export function searchTextOf(ticket: Ticket): string {
  let text = haystacks.get(ticket);
  if (text === undefined) {
    text = [
      ticket.title,
      ticket.subtitle,
      ticket.venue_name,
      ticket.seat?.seat_info_combined,
      ticket.account_email,
      ticket.distribution?.label,
    ]
      .filter(Boolean)
      .join('\n')
      .toLowerCase();
    haystacks.set(ticket, text);
  }
  return text;
}

/**
 * Makes the search texts of `tickets` ahead of a first search, a few at a time (lib/idle-work.ts runWhenIdle): each
 * call goes on from where the last one stopped and says whether every ticket has its text. Without it, the first
 * letter typed over 10,000 tickets waits for all their texts.
 */
export function searchTextsAhead(tickets: readonly Ticket[]): (hasTime: () => boolean) => boolean {
  let next = 0;
  return (hasTime) => {
    while (next < tickets.length) {
      searchTextOf(tickets[next++]!);
      if (next % 64 === 0 && !hasTime()) return next >= tickets.length;
    }
    return true;
  };
}

/** docs/reference.md "Tickets Overview screen": the overview sorts by Date (the next game's), Event, Account or Status. */
export type SortKey = 'date' | 'event' | 'account' | 'status';
export type SortDirection = 'asc' | 'desc';
export interface TicketSort {
  key: SortKey;
  direction: SortDirection;
}

/** The sorts the overview offers, in the order its Sort by select lists them (the list's headers offer the same). */
export const SORT_OPTIONS: ReadonlyArray<{ value: SortKey; label: string }> = [
  { value: 'date', label: 'Date' },
  { value: 'event', label: 'Event' },
  { value: 'account', label: 'Account' },
  { value: 'status', label: 'Status' },
];

// Made at its first use (lib/format.ts madeOnce), when a list is first indexed, not as the page's code loads.
const collator = madeOnce(() => new Intl.Collator('en-GB', { sensitivity: 'base', numeric: true }));

/** Expiry as epoch ms; a link without one never expires, so it sorts after every dated one. */
function expiryOf(ticket: Ticket): number {
  const expiry = ticket.distribution?.expiry;
  const time = expiry ? Date.parse(expiry) : NaN;
  return Number.isFinite(time) ? time : Number.POSITIVE_INFINITY;
}

/** The next game's start as epoch ms; a ticket without one (or with a text that is no date) has NaN. */
function eventDateOf(ticket: Ticket): number {
  const date = ticket.metadata?.next_game_date;
  return date ? Date.parse(date) : Number.NaN;
}

/**
 * The status order (docs/reference.md "Ticket and link transitions"): not distributed, distributed (ties by
 * distribution expiry, earliest first), duplicate.
 */
export function compareStatus(a: Ticket, b: Ticket): number {
  const byStatus = ticketStatus(a) - ticketStatus(b);
  if (byStatus !== 0) return byStatus;
  if (ticketStatus(a) !== TICKET_STATUS.distributed) return 0;
  const ea = expiryOf(a);
  const eb = expiryOf(b);
  return ea === eb ? 0 : ea < eb ? -1 : 1;
}

/**
 * A ticket list made ready for filtering and sorting, once per list (not per keystroke): each ticket's search text,
 * and its place among the list's events, accounts and statuses as whole numbers, so a sort of 10,000 tickets compares
 * numbers instead of collating strings. By position in `tickets`.
 */
export interface TicketIndex {
  readonly tickets: readonly Ticket[];
  readonly text: readonly string[];
  /** Rank of (title, then subtitle) among the list's distinct events; equal for events that collate equal. */
  readonly eventRank: Uint32Array;
  /** Rank of the account e-mail. */
  readonly accountRank: Uint32Array;
  /** The next game's start (epoch ms), NaN for a ticket without one. */
  readonly eventDate: Float64Array;
  /** The status order (docs/reference.md "Ticket and link transitions"): status, then (distributed) expiry. */
  readonly status: Uint8Array;
  readonly expiry: Float64Array;
}

/** Each value's rank among the distinct values of the list, in `compare` order (values that compare equal share it). */
function ranks<K>(
  tickets: readonly Ticket[],
  keyOf: (t: Ticket) => string,
  parts: (key: string) => K,
  compare: (a: K, b: K) => number,
) {
  const keys = tickets.map(keyOf);
  const byKey = new Map<string, number>();
  for (const key of keys) byKey.set(key, 0);
  const distinct = [...byKey.keys()].map((key) => ({ key, parts: parts(key) }));
  distinct.sort((a, b) => compare(a.parts, b.parts));
  let rank = 0;
  distinct.forEach((entry, i) => {
    if (i > 0 && compare(distinct[i - 1]!.parts, entry.parts) !== 0) rank++;
    byKey.set(entry.key, rank);
  });
  const out = new Uint32Array(tickets.length);
  keys.forEach((key, i) => (out[i] = byKey.get(key)!));
  return out;
}

const EVENT_SEPARATOR = '\u0000';

export function indexTickets(tickets: readonly Ticket[]): TicketIndex {
  const status = new Uint8Array(tickets.length);
  const expiry = new Float64Array(tickets.length);
  tickets.forEach((ticket, i) => {
    status[i] = ticketStatus(ticket);
    expiry[i] = status[i] === TICKET_STATUS.distributed ? expiryOf(ticket) : 0;
  });
  // The search texts and the ranks are made when first read (a search, a sort by Event or Account), not for every
  // list that comes in: a first load of 10,000 tickets with no search or sort on makes none of them.
  let text: readonly string[] | undefined;
  let eventRank: Uint32Array | undefined;
  let accountRank: Uint32Array | undefined;
  let eventDate: Float64Array | undefined;
  return {
    tickets,
    get text() {
      return (text ??= tickets.map(searchTextOf));
    },
    get eventRank() {
      return (eventRank ??= ranks(
        tickets,
        (t) => `${t.title}${EVENT_SEPARATOR}${t.subtitle ?? ''}`,
        (key) => key.split(EVENT_SEPARATOR) as [string, string],
        (a, b) => collator().compare(a[0], b[0]) || collator().compare(a[1], b[1]),
      ));
    },
    get accountRank() {
      return (accountRank ??= ranks(
        tickets,
        (t) => t.account_email,
        (key) => key,
        (a, b) => collator().compare(a, b),
      ));
    },
    get eventDate() {
      if (eventDate) return eventDate;
      eventDate = new Float64Array(tickets.length);
      tickets.forEach((ticket, i) => (eventDate![i] = eventDateOf(ticket)));
      return eventDate;
    },
    status,
    expiry,
  };
}

function matchesStatus(ticket: Ticket, status: StatusFilter): boolean {
  // docs/reference.md "Ticket and link transitions": duplicates are excluded from the Distributed and Not Distributed
  // filters.
  if (status === 'all') return true;
  if (ticket.is_duplicate) return false;
  return status === 'distributed' ? ticket.is_distributed : !ticket.is_distributed;
}

/** What a list's last filtering asked and left (filterPositions), by list. */
interface LastFiltering {
  needle: string;
  selectedAccount: string;
  status: StatusFilter;
  event: string;
  /** In list order; never sorted in place. */
  positions: readonly number[];
}
const lastFiltering = new WeakMap<TicketIndex, LastFiltering>();

/**
 * Positions of the tickets that pass every filter, in list order. The search ignores case and surrounding spaces.
 *
 * A search that narrows the last one on the same list (a letter typed: every text holding the new query holds the
 * one before it), with the other filters as they were, looks only at the tickets the last one left, not at all
 * 10,000 again.
 */
function filterPositions(index: TicketIndex, filters: TicketFilters): readonly number[] {
  const needle = filters.search.trim().toLowerCase();
  const { selectedAccount, status, event } = filters;
  const last = lastFiltering.get(index);
  const from =
    last &&
    last.needle !== '' &&
    needle.includes(last.needle) &&
    last.selectedAccount === selectedAccount &&
    last.status === status &&
    last.event === event
      ? last.positions
      : null;
  const out: number[] = [];
  const { tickets } = index;
  const text = needle ? index.text : [];
  const count = from ? from.length : tickets.length;
  for (let k = 0; k < count; k++) {
    const i = from ? from[k]! : k;
    const ticket = tickets[i]!;
    if (selectedAccount && ticket.account_id !== selectedAccount) continue;
    if (event && ticket.title !== event) continue;
    if (!matchesStatus(ticket, status)) continue;
    if (needle && !text[i]!.includes(needle)) continue;
    out.push(i);
  }
  lastFiltering.set(index, { needle, selectedAccount, status, event, positions: out });
  return out;
}

/**
 * Sorts positions by `sort` (in place); the list's order is kept for ties, descending reverses the comparison. By
 * Date, the next game soonest first (latest first descending), and a ticket without a date after every dated one,
 * whichever the direction.
 */
function sortPositions(index: TicketIndex, positions: number[], sort: TicketSort): void {
  const sign = sort.direction === 'asc' ? 1 : -1;
  if (sort.key === 'date') {
    const date = index.eventDate;
    positions.sort((a, b) => {
      const da = date[a]!;
      const db = date[b]!;
      const undated = Number(Number.isNaN(da)) - Number(Number.isNaN(db));
      if (undated !== 0) return undated;
      if (Number.isNaN(da) || da === db) return a - b;
      return sign * (da < db ? -1 : 1);
    });
    return;
  }
  const { status, expiry } = index;
  const rank = sort.key === 'event' ? index.eventRank : sort.key === 'account' ? index.accountRank : null;
  const compare = rank
    ? (a: number, b: number) => rank[a]! - rank[b]!
    : (a: number, b: number) =>
        status[a]! - status[b]! ||
        (status[a] === TICKET_STATUS.distributed ? Math.sign(expiry[a]! - expiry[b]!) || 0 : 0);
  positions.sort((a, b) => sign * compare(a, b) || a - b);
}

/** Filters, then sorts: what the overview shows. Without filters or sort, the list itself. */
export function visibleOf(index: TicketIndex, filters: TicketFilters, sort: TicketSort | null): readonly Ticket[] {
  if (!hasActiveFilters(filters) && !sort) return index.tickets;
  const filtered = filterPositions(index, filters);
  if (!sort) return filtered.map((i) => index.tickets[i]!);
  const positions = [...filtered];
  sortPositions(index, positions, sort);
  return positions.map((i) => index.tickets[i]!);
}

/** The tickets that pass every filter, in their given order (a copy). */
export function filterTickets(tickets: readonly Ticket[], filters: TicketFilters): Ticket[] {
  return filterPositions(indexTickets(tickets), filters).map((i) => tickets[i]!);
}

/**
 * The tickets sorted by `sort` (a copy; the input's order is kept for ties). Descending reverses the comparison, so
 * for Status it runs duplicate, distributed (latest expiry first), not distributed. Without a sort: the given order.
 */
export function sortTickets(tickets: readonly Ticket[], sort: TicketSort | null): Ticket[] {
  const positions = tickets.map((_, i) => i);
  if (sort) sortPositions(indexTickets(tickets), positions, sort);
  return positions.map((i) => tickets[i]!);
}

/** The next sort when a column header is pressed: ascending first, then descending, then back to ascending. */
export function nextSort(current: TicketSort | null, key: SortKey): TicketSort {
  if (current?.key === key) return { key, direction: current.direction === 'asc' ? 'desc' : 'asc' };
  return { key, direction: 'asc' };
}

/** The event select's options: each distinct title once, alphabetically. */
export function eventOptions(tickets: readonly Ticket[]): string[] {
  const titles = new Set<string>();
  for (const ticket of tickets) if (ticket.title) titles.add(ticket.title);
  return [...titles].sort(collator().compare);
}

export interface AccountOption {
  id: string;
  /** "Name (email)" (docs/reference.md "Tickets Overview screen": each account as name and email). */
  label: string;
}

/**
 * The account select's options: every linked account as name and e-mail, plus any account a ticket names that the
 * accounts list does not (known by its e-mail only), sorted by label.
 */
export function accountOptions(
  accounts: readonly Pick<Account, 'id' | 'name' | 'email'>[],
  tickets: readonly Pick<Ticket, 'account_id' | 'account_email'>[],
): AccountOption[] {
  const options = new Map<string, AccountOption>();
  for (const account of accounts) {
    const name = account.name.trim();
    options.set(account.id, { id: account.id, label: name ? `${name} (${account.email})` : account.email });
  }
  for (const ticket of tickets) {
    if (!options.has(ticket.account_id)) {
      options.set(ticket.account_id, { id: ticket.account_id, label: ticket.account_email });
    }
  }
  return [...options.values()].sort((a, b) => collator().compare(a.label, b.label));
}
