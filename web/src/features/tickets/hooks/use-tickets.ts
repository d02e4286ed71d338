import { useQuery } from '@tanstack/react-query';
import type { Ticket } from '@seatlink/contracts';
import { accountListQuery } from '../../../lib/account-list';
import { querySlice, type QueryStateLike } from '../../../lib/query-slice';
import { ticketListQuery, type TicketList } from '../../../lib/ticket-list';

const NO_TICKETS: readonly Ticket[] = [];

/** docs/reference.md "Fallback texts": the fallback when the tickets cannot be read. */
export const TICKETS_FETCH_FAILED = 'Failed to fetch tickets';

/**
 * The tickets slice (tickets, loading, error; docs/reference.md "Screen state") from the ticket list query's state; a
 * failed re-read keeps the list shown (lib/query-slice.ts).
 */
export function ticketsSlice(state: QueryStateLike<TicketList>) {
  const { data, loading, loaded, error } = querySlice(state, TICKETS_FETCH_FAILED);
  return {
    tickets: data?.tickets ?? NO_TICKETS,
    loading,
    loaded,
    /** The whole list is in (the first load's later pages have come). */
    complete: data?.complete ?? false,
    error,
  };
}

/**
 * The tickets slice, from the ticket list query (lib/ticket-list.ts): read when the overview mounts and again, by
 * changes, when a live push names it.
 */
export function useTickets() {
  const query = useQuery(ticketListQuery);
  return { ...ticketsSlice(query), retry: query.refetch };
}

/**
 * The accounts the account filter names (GET /v1/accounts, shared with the accounts page). A failure leaves the
 * options the tickets' e-mails name.
 */
export function useFilterAccounts() {
  return useQuery(accountListQuery).data?.accounts;
}
