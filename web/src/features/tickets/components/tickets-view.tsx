import { memo, useCallback } from 'react';
import { Link } from 'react-router-dom';
import type { Ticket } from '@seatlink/contracts';
import { Button } from '../../../components/ui/button';
import { CardGrid } from '../../../components/ui/card-grid';
import { EmptyState } from '../../../components/ui/empty-state';
import { LoadFailed, LoadingStatus } from '../../../components/ui/load-states';
import { useNow } from '../../../lib/use-now';
import { useDistributingIds } from '../hooks/use-ticket-actions';
import { useTickets } from '../hooks/use-tickets';
import type { TicketSort } from '../ticket-filters';
import type { ViewMode } from '../tickets.store';
import { useTicketsStore } from '../tickets.store';
import { ticketCardHeight } from '../ticket-card-height';
import { clockOf } from '../ticket-clock';
import { TicketCard } from './ticket-card';
import { TicketsList } from './tickets-list';

/**
 * Cards are at least this wide; the grid has 1 to 4 columns by the width it has
 * (docs/reference.md "Tickets Overview screen").
 */
const MIN_CARD_WIDTH = 300;
const MAX_COLUMNS = 4;

const ticketKey = (ticket: Ticket) => ticket.id;

export interface TicketsViewProps {
  /** The tickets the filters leave, in the order of the sort. */
  shown: readonly Ticket[];
  /** Tickets of the list shown, and whether one has been shown (hooks/use-filtered-tickets.ts). */
  total: number;
  loaded: boolean;
  view: ViewMode;
  /** The sort the list shows. */
  sort: TicketSort | null;
  /** Some filter is set (an empty result then offers to clear them). */
  filtered: boolean;
}

/**
 * The tickets themselves: the grid of cards or the list, each windowed and selectable; or, in their place, the first
 * load, its failure, or why there is nothing to show. Memoised: what re-renders the page and not what it shows (the
 * credits, the stats, the filter bar's own state) leaves it be.
 */
export const TicketsView = memo(function TicketsView({ shown, total, loaded, view, sort, filtered }: TicketsViewProps) {
  const { error, retry } = useTickets();
  const selectedIds = useTicketsStore((s) => s.selectedIds);
  const distributingIds = useDistributingIds();
  const { clearFilters, sortBy, toggleSelected, setSelected } = useTicketsStore.getState();
  const now = useNow(30_000);

  const renderCard = useCallback(
    (ticket: Ticket) => (
      <TicketCard
        ticket={ticket}
        selected={selectedIds.has(ticket.id)}
        onToggle={toggleSelected}
        distributing={distributingIds.has(ticket.id)}
        now={clockOf(ticket, now)}
      />
    ),
    [selectedIds, distributingIds, toggleSelected, now],
  );
  const selectAllShown = useCallback(
    (selected: boolean) =>
      setSelected(
        shown.map((t) => t.id),
        selected,
      ),
    [shown, setSelected],
  );

  if (error && !loaded) {
    return <LoadFailed message={error} onRetry={() => void retry()} testId="tickets-error" />;
  }
  if (!loaded) return <LoadingStatus />;
  if (shown.length === 0) {
    return (
      <EmptyState title="No Tickets Found" testId="tickets-empty">
        {total > 0 || filtered ? (
          <>
            <p>No ticket matches these filters.</p>
            <Button variant="secondary" size="sm" className="mt-4" onClick={clearFilters}>
              Clear Filters
            </Button>
          </>
        ) : (
          <p>
            <Link to="/dashboard/accounts" className="font-medium text-indigo-600 hover:text-indigo-500">
              Link a wallet account
            </Link>{' '}
            and its tickets show here. Tickets can take up to 15 minutes to appear after syncing.
          </p>
        )}
      </EmptyState>
    );
  }
  if (view === 'list') {
    return (
      <TicketsList
        tickets={shown}
        sort={sort}
        onSort={sortBy}
        selectedIds={selectedIds}
        onToggle={toggleSelected}
        onSelectAll={selectAllShown}
        distributingIds={distributingIds}
        now={now}
      />
    );
  }
  return (
    <CardGrid
      items={shown}
      estimateCardHeight={ticketCardHeight}
      minColumnWidth={MIN_CARD_WIDTH}
      maxColumns={MAX_COLUMNS}
      getKey={ticketKey}
      renderItem={renderCard}
      label="Tickets"
      testId="tickets-grid"
    />
  );
});
