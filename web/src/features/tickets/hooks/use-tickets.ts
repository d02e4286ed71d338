import { useQuery, type FetchStatus } from '@tanstack/react-query';
import type { Ticket } from '@seatlink/contracts';
import { accountListQuery } from '../../../lib/account-list';
import { errorMessage } from '../../../lib/api-client';
import { ticketListQuery, type TicketList } from '../../../lib/ticket-list';

const NO_TICKETS: readonly Ticket[] = [];

/** SPEC.md §8: the fallback when the tickets cannot be read. */
export const TICKETS_FETCH_FAILED = 'Failed to fetch tickets';

/** What a ticket list query holds now: its answer, its last failure, whether a read runs. */
export interface TicketListState {
  data: TicketList | undefined;
  error: unknown;
  fetchStatus: FetchStatus;
}

/**
 * The tickets slice of SPEC.md §3 (tickets, loading, error) from the ticket list query's state. A failed re-read
 * keeps the list shown (it is only out of date), so `error` is set only while there is no list.
 */
export function ticketsSlice({ data, error, fetchStatus }: TicketListState) {
  const loaded = data !== undefined;
  return {
    tickets: data?.tickets ?? NO_TICKETS,
    /** A read is under way (the first, or a refresh). */
    loading: fetchStatus === 'fetching',
    /** A first answer has arrived (an empty list then means no tickets, not "not loaded yet"). */
    loaded,
    /** The whole list is in (the first load's later pages have come). */
    complete: data?.complete ?? false,
    error: !loaded && error ? errorMessage(error, TICKETS_FETCH_FAILED) : null,
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
