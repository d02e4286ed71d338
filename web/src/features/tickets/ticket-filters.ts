import { TICKET_STATUS, type Account, type Ticket } from '@seatlink/contracts';

/**
 * The tickets overview's filters and sort (SPEC.md §2 "Tickets overview", §4): pure, and fast enough for 10,000
 * tickets on every keystroke (ticket-filters.unit.spec.ts prints the time it takes).
 */

/** SPEC.md §9: status filter options All, Distributed, Not Distributed. */
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

/** SPEC.md §3 display status: a duplicate is a duplicate whatever else it is. */
export function ticketStatus(ticket: Pick<Ticket, 'is_duplicate' | 'is_distributed'>): TicketStatus {
  if (ticket.is_duplicate) return TICKET_STATUS.duplicate;
  return ticket.is_distributed ? TICKET_STATUS.distributed : TICKET_STATUS.notDistributed;
}

export const STATUS_LABELS: Record<TicketStatus, string> = {
  [TICKET_STATUS.notDistributed]: 'Not Distributed',
  [TICKET_STATUS.distributed]: 'Distributed',
  [TICKET_STATUS.duplicate]: 'Duplicate',
};

// The text a search looks in, lower-cased once per ticket object (a refetch brings new objects, and new texts).
const haystacks = new WeakMap<Ticket, string>();

/** Title, subtitle, venue, seat and account e-mail, lower-cased: what the search box looks in. */
export function searchTextOf(ticket: Ticket): string {
  let text = haystacks.get(ticket);
  if (text === undefined) {
    text = [ticket.title, ticket.subtitle, ticket.venue_name, ticket.seat?.seat_info_combined, ticket.account_email]
      .filter(Boolean)
      .join('\n')
      .toLowerCase();
    haystacks.set(ticket, text);
  }
  return text;
}

function matchesStatus(ticket: Ticket, status: StatusFilter): boolean {
  // SPEC.md §4: duplicates are excluded from the Distributed and Not Distributed filters.
  if (status === 'all') return true;
  if (ticket.is_duplicate) return false;
  return status === 'distributed' ? ticket.is_distributed : !ticket.is_distributed;
}

/** The tickets that pass every filter, in their given order. The search ignores case and surrounding spaces. */
export function filterTickets(tickets: readonly Ticket[], filters: TicketFilters): Ticket[] {
  const needle = filters.search.trim().toLowerCase();
  const { selectedAccount, status, event } = filters;
  if (!needle && !selectedAccount && status === 'all' && !event) return tickets.slice();
  const out: Ticket[] = [];
  for (const ticket of tickets) {
    if (selectedAccount && ticket.account_id !== selectedAccount) continue;
    if (event && ticket.title !== event) continue;
    if (!matchesStatus(ticket, status)) continue;
    if (needle && !searchTextOf(ticket).includes(needle)) continue;
    out.push(ticket);
  }
  return out;
}

/** SPEC.md §2: the list view sorts by Event, Account or Status. */
export type SortKey = 'event' | 'account' | 'status';
export type SortDirection = 'asc' | 'desc';
export interface TicketSort {
  key: SortKey;
  direction: SortDirection;
}

const collator = new Intl.Collator('en-GB', { sensitivity: 'base', numeric: true });

/** Expiry as epoch ms; a link without one never expires, so it sorts after every dated one. */
function expiryOf(ticket: Ticket): number {
  const expiry = ticket.distribution?.expiry;
  const time = expiry ? Date.parse(expiry) : NaN;
  return Number.isFinite(time) ? time : Number.POSITIVE_INFINITY;
}

/**
 * SPEC.md §4 status order: not distributed, distributed (ties by distribution expiry, earliest first), duplicate.
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
 * The tickets sorted by `sort` (a copy; the input's order is kept for ties). Descending reverses the comparison, so
 * for Status it runs duplicate, distributed (latest expiry first), not distributed. Without a sort: the given order.
 */
export function sortTickets(tickets: readonly Ticket[], sort: TicketSort | null): Ticket[] {
  if (!sort) return tickets.slice();
  const sign = sort.direction === 'asc' ? 1 : -1;
  // Keys are read once per ticket, not once per comparison.
  const keyed = tickets.map((ticket, index) => ({ ticket, index, keys: sortKeysOf(ticket, sort.key) }));
  type Keyed = (typeof keyed)[number];
  const compare =
    sort.key === 'status'
      ? (a: Keyed, b: Keyed) => compareStatus(a.ticket, b.ticket)
      : (a: Keyed, b: Keyed) => collator.compare(a.keys[0], b.keys[0]) || collator.compare(a.keys[1], b.keys[1]);
  keyed.sort((a, b) => sign * compare(a, b) || a.index - b.index);
  return keyed.map((k) => k.ticket);
}

/** What a column sorts by: the event's title, then its subtitle; the account's e-mail. */
function sortKeysOf(ticket: Ticket, key: SortKey): readonly [string, string] {
  if (key === 'event') return [ticket.title, ticket.subtitle ?? ''];
  if (key === 'account') return [ticket.account_email, ''];
  return ['', ''];
}

/** Filters, then sorts: what the overview shows. */
export function visibleTickets(tickets: readonly Ticket[], filters: TicketFilters, sort: TicketSort | null): Ticket[] {
  return sortTickets(filterTickets(tickets, filters), sort);
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
  return [...titles].sort(collator.compare);
}

export interface AccountOption {
  id: string;
  /** "Name (email)" (SPEC.md §2: each account as name and email). */
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
  return [...options.values()].sort((a, b) => collator.compare(a.label, b.label));
}
