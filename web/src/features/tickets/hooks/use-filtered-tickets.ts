import { useDeferredValue, useEffect, useMemo } from 'react';
import { runWhenIdle } from '../../../lib/idle-work';
import { hasActiveFilters, indexTickets, searchTextsAhead, visibleOf } from '../ticket-filters';
import { useTicketsStore } from '../tickets.store';
import { useFilterAccounts, useTickets } from './use-tickets';

/**
 * The overview's tickets, filters and sort, the linked accounts, and the tickets the filters leave shown, in order.
 * The list is indexed once per version of it (search texts, sort ranks); a keystroke, filter or sort reads the index.
 *
 * A new list (10,000 tickets coming in, a change read) is shown at a lower priority than what the user does: React
 * renders it in the background, yielding between components, so indexing it, counting its stats and laying out its
 * rows are short tasks of their own, not one that holds a tap back. `tickets`, `complete` and `loaded` are of the
 * list shown: what shows it reads them, not the query, or it would say 'No Tickets Found' for a moment of a first load.
 */
export function useFilteredTickets() {
  const live = useTickets();
  const { tickets, complete, loaded } = useDeferredValue(
    useMemo(
      () => ({ tickets: live.tickets, complete: live.complete, loaded: live.loaded }),
      [live.tickets, live.complete, live.loaded],
    ),
  );
  const accounts = useFilterAccounts();
  const filters = useTicketsStore((s) => s.filters);
  const sort = useTicketsStore((s) => s.sort);

  // A keystroke, filter or sort is drawn in the frame after it: the list follows the filters in the same render as
  // the field. Deferring it (useDeferredValue) held it back at least a frame more: after an input event Chromium runs
  // no posted task (React's deferred render among them) until it has drawn a frame, so the results came a frame after
  // the letter (bench/dashboard.bench.ts `dashboard-search`: p50 26 → 19 ms). The work is an index read (a typed
  // letter narrows the last search's result: ticket-filters.ts) and the few cards in view.
  const index = useMemo(() => indexTickets(tickets), [tickets]);
  const shown = useMemo(() => visibleOf(index, filters, sort), [index, filters, sort]);

  // The search texts are made while the page is idle, so the first letter typed finds them made (a list read by
  // changes keeps its unchanged tickets, whose texts are kept: only the changed ones are made again).
  useEffect(() => runWhenIdle(searchTextsAhead(tickets)), [tickets]);

  // A ticked ticket that is gone (its account deleted, its pass left the wallet) is unticked.
  useEffect(() => {
    const { selectedIds, keepSelected } = useTicketsStore.getState();
    if (!complete || selectedIds.size === 0) return;
    const present = new Set(tickets.map((t) => t.id));
    keepSelected((id) => present.has(id));
  }, [tickets, complete]);

  return {
    tickets,
    complete,
    loaded,
    filters,
    shown,
    sort,
    accounts,
    filtered: hasActiveFilters(filters),
  };
}
