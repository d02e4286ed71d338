import { formatCount } from '../../../lib/format';
import { useTicketsStore } from '../tickets.store';

/**
 * How many tickets there are, or how many of them the filters show, once the first list has arrived; told politely
 * to assistive technology, with a refresh under way.
 */
export function TicketsCount({ shown, filtered }: { shown: number; filtered: boolean }) {
  const total = useTicketsStore((s) => s.tickets.length);
  const loading = useTicketsStore((s) => s.loading);
  const loaded = useTicketsStore((s) => s.loaded);
  return (
    <p className="text-sm text-slate-600" role="status" aria-live="polite" data-testid="tickets-count">
      {loaded ? (
        filtered ? (
          <>
            Showing {formatCount(shown)} of {formatCount(total)} tickets
          </>
        ) : (
          <>
            {formatCount(total)} {total === 1 ? 'ticket' : 'tickets'}
          </>
        )
      ) : null}
      {loading && loaded ? <span className="sr-only"> (refreshing)</span> : null}
    </p>
  );
}
