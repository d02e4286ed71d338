import { useDeferredValue, useMemo } from 'react';
import { accountOptions, eventOptions, hasActiveFilters, visibleTickets } from '../ticket-filters';
import { useTicketsStore } from '../tickets.store';

/**
 * The overview's filters and sort, the choices its filters offer, and the tickets they leave shown, in order.
 */
export function useFilteredTickets() {
  const tickets = useTicketsStore((s) => s.tickets);
  const accounts = useTicketsStore((s) => s.accounts);
  const filters = useTicketsStore((s) => s.filters);
  const sort = useTicketsStore((s) => s.sort);

  // Typing stays responsive: the list follows the filters at a lower priority than the input. Whether a filter is on
  // is read from the same deferred filters, so the count ("Showing 5 of 28") always describes the list shown.
  const deferredFilters = useDeferredValue(filters);
  const shown = useMemo(() => visibleTickets(tickets, deferredFilters, sort), [tickets, deferredFilters, sort]);
  const events = useMemo(() => eventOptions(tickets), [tickets]);
  const accountChoices = useMemo(() => accountOptions(accounts, tickets), [accounts, tickets]);

  return { tickets, filters, shown, events, accountChoices, filtered: hasActiveFilters(deferredFilters) };
}
