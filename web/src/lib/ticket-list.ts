import { queryOptions, type QueryClient } from '@tanstack/react-query';
import {
  type LinkClicks,
  MAX_TICKETS_PAGE,
  routes,
  type Ticket,
  type TicketDistribution,
  type TicketsQuery,
  type TicketsResponse,
} from '@seatlink/contracts';
import { callApi } from './api-client';
import {
  mergeTicketChanges,
  replaceTicketList,
  withoutTicketLink,
  withTicketClicks,
  withTicketLinks,
  withoutRepeats,
} from './ticket-changes';

/**
 * The signed-in user's tickets (GET /v1/tickets), read once and then by changes: the first load pages
 * (TICKETS_PAGE_SIZE a page, the first page shown at once), keeps the first page's `version` and, once the pages are
 * in, asks what changed since it; every later read asks only what changed since the version held, and merges the
 * changed tickets and the removed ids in. A `full` answer replaces the list. An answer without `version` (a server
 * that does not answer by changes) means a change re-reads the whole list. The overview and the account page read it.
 */

/** The query key of the user's ticket list (lib/live-refresh.ts reads it again on a push). */
export const TICKET_LIST_KEY = ['tickets', 'list'] as const;

/**
 * Tickets of the first load's first page: a screenful and more, shown at once while the rest comes (on a slow phone
 * network the first screen does not wait for thousands of tickets).
 */
export const FIRST_TICKETS_PAGE_SIZE = 100;
/**
 * Tickets asked per later page of the first load: a quarter of the most a page may hold (services/contracts
 * tickets.ts), so reading one page (its text and JSON, about 330 KB) stays a short task on a phone, one that never
 * holds a tap back; at 1,000 a page each was a long task on a phone's CPU.
 */
export const TICKETS_PAGE_SIZE = MAX_TICKETS_PAGE / 4;

export interface TicketList {
  tickets: readonly Ticket[];
  /** The version the list stands at (asked `since` next time); null when the server answers none. */
  version: string | null;
  /** False while the first load's later pages are still coming. */
  complete: boolean;
}

function getTickets(query: TicketsQuery, signal: AbortSignal): Promise<TicketsResponse> {
  return callApi(routes.listTickets, { query, signal });
}

/** The whole list as shown now, when it stands at `version` (not the first page of a first load). */
function shownAt(client: QueryClient, version: string | null): TicketList | undefined {
  const shown = client.getQueryData<TicketList>(TICKET_LIST_KEY);
  return shown && shown.complete && shown.version === version ? shown : undefined;
}

/** What changed since `base.version`, merged into the list as shown when the answer comes (clicks may have moved). */
async function readChanges(client: QueryClient, base: TicketList & { version: string }, signal: AbortSignal) {
  const answer = await getTickets({ since: base.version }, signal);
  const shown = shownAt(client, base.version)?.tickets ?? base.tickets;
  if (answer.full || answer.version === undefined) {
    return { tickets: replaceTicketList(shown, answer.tickets), version: answer.version ?? null, complete: true };
  }
  return {
    tickets: mergeTicketChanges(shown, answer.tickets, answer.removed),
    version: answer.version,
    complete: true,
  };
}

/**
 * Every ticket, page by page: the first page is shown as soon as it comes, the others once they are all in (each list
 * shown is indexed and laid out again, so 10,000 tickets are shown twice, not once a page).
 */
async function readAll(client: QueryClient, signal: AbortSignal): Promise<TicketList> {
  const shownBefore = client.getQueryData<TicketList>(TICKET_LIST_KEY)?.tickets;
  let answer = await getTickets({ limit: FIRST_TICKETS_PAGE_SIZE }, signal);
  const version = answer.version ?? null;
  const pages: Ticket[][] = [answer.tickets];
  if (!answer.next_cursor) return { tickets: replaceTicketList(shownBefore, answer.tickets), version, complete: true };
  // What has come is shown at once (a list that was shown stays until the new one is whole); not by a read given up
  // (its user signed out, and the cache was cleared: it would put their tickets back).
  if (!shownBefore && !signal.aborted)
    client.setQueryData<TicketList>(TICKET_LIST_KEY, { tickets: answer.tickets, version, complete: false });
  while (answer.next_cursor) {
    if (signal.aborted) break;
    answer = await getTickets({ limit: TICKETS_PAGE_SIZE, after: answer.next_cursor }, signal);
    pages.push(answer.tickets);
  }
  const whole = { tickets: replaceTicketList(shownBefore, withoutRepeats(pages.flat())), version, complete: false };
  if (version === null) return { ...whole, complete: true };
  // What changed while the pages came in.
  return readChanges(client, { ...whole, version }, signal);
}

/** Reads the list: by changes when a whole list with a version is held, otherwise all of it. */
export function readTicketList(client: QueryClient, signal: AbortSignal): Promise<TicketList> {
  const held = client.getQueryData<TicketList>(TICKET_LIST_KEY);
  if (held?.complete && held.version !== null) return readChanges(client, { ...held, version: held.version }, signal);
  return readAll(client, signal);
}

/**
 * The ticket list query. Its answers are merged by readTicketList, which keeps every unchanged ticket as it was, so
 * the cache's deep comparison (structural sharing) of 10,000 tickets is left out.
 */
export const ticketListQuery = queryOptions({
  queryKey: TICKET_LIST_KEY,
  queryFn: ({ client, signal }) => readTicketList(client, signal),
  structuralSharing: false,
  gcTime: 30 * 60_000,
});

function update(client: QueryClient, change: (tickets: readonly Ticket[]) => readonly Ticket[]): void {
  const held = client.getQueryData<TicketList>(TICKET_LIST_KEY);
  if (!held) return;
  const tickets = change(held.tickets);
  if (tickets !== held.tickets) client.setQueryData<TicketList>(TICKET_LIST_KEY, { ...held, tickets });
}

/** Live click counts: those tickets change in place, nothing is read. */
export function applyTicketClicks(client: QueryClient, links: readonly LinkClicks[]) {
  update(client, (tickets) => withTicketClicks(tickets, links));
}

/** Links this page just made, shown at once (the next read by changes confirms them). */
export function applyTicketLinks(client: QueryClient, links: ReadonlyMap<string, TicketDistribution>) {
  update(client, (tickets) => withTicketLinks(tickets, links));
}

/** A link this page just recalled leaves its ticket at once. */
export function applyLinkRecalled(client: QueryClient, ticketId: string, distributionId: string) {
  update(client, (tickets) => withoutTicketLink(tickets, ticketId, distributionId));
}
