import { countOf, formatCount } from '../../../lib/format';
import { useTickets } from '../hooks/use-tickets';

/**
 * How many tickets there are, or how many of them the filters show, once the first list has arrived; told politely
 * to assistive technology, with a refresh under way. A big list's first page is shown before the rest has come: the
 * line then says the rest is loading, so '100 tickets' is never taken for the whole.
 */
export function TicketsCount({
  total,
  loaded,
  complete,
  shown,
  filtered,
}: {
  /** Tickets of the list shown, whether one has been shown and whether it is whole (hooks/use-filtered-tickets.ts). */
  total: number;
  loaded: boolean;
  complete: boolean;
  shown: number;
  filtered: boolean;
}) {
  const { loading } = useTickets();
  return (
    <p
      className="min-w-0 truncate text-sm text-slate-600 max-sm:basis-full"
      role="status"
      aria-live="polite"
      data-testid="tickets-count"
    >
      {loaded ? (
        filtered ? (
          <>
            Showing {formatCount(shown)} of {countOf(total, 'ticket')}
          </>
        ) : (
          countOf(total, 'ticket')
        )
      ) : null}
      {loaded && !complete ? <span data-testid="tickets-loading-rest"> · loading…</span> : null}
      {loading && loaded && complete ? <span className="sr-only"> (refreshing)</span> : null}
    </p>
  );
}
