import { useCallback } from 'react';
import { Link } from 'react-router-dom';
import type { Ticket } from '@seatlink/contracts';
import { Button } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/empty-state';
import { LoadFailed, LoadingStatus } from '../../../components/ui/load-states';
import { VirtualGrid } from '../../../components/ui/virtual-grid';
import { useNow } from '../../../lib/use-now';
import type { ViewMode } from '../tickets.store';
import { useTicketsStore } from '../tickets.store';
import { TICKET_CARD_HEIGHT, TicketCard } from './ticket-card';
import { TicketsList } from './tickets-list';

/** Cards are at least this wide; the grid has 1 to 4 columns by the width it has (SPEC.md §2). */
const MIN_CARD_WIDTH = 272;
const MAX_COLUMNS = 4;

const ticketKey = (ticket: Ticket) => ticket.id;

export interface TicketsViewProps {
  /** The tickets the filters leave, in the order of the sort. */
  shown: readonly Ticket[];
  view: ViewMode;
  /** Some filter is set (an empty result then offers to clear them). */
  filtered: boolean;
}

/**
 * The tickets themselves: the grid of cards or the list, each windowed and selectable; or, in their place, the first
 * load, its failure, or why there is nothing to show.
 */
export function TicketsView({ shown, view, filtered }: TicketsViewProps) {
  const total = useTicketsStore((s) => s.tickets.length);
  const loaded = useTicketsStore((s) => s.loaded);
  const error = useTicketsStore((s) => s.error);
  const sort = useTicketsStore((s) => s.sort);
  const selectedIds = useTicketsStore((s) => s.selectedIds);
  const distributingIds = useTicketsStore((s) => s.distributingIds);
  const { fetchTickets, clearFilters, sortBy, toggleSelected, setSelected } = useTicketsStore.getState();
  const now = useNow(30_000);

  const renderCard = useCallback(
    (ticket: Ticket) => (
      <TicketCard
        ticket={ticket}
        selected={selectedIds.has(ticket.id)}
        onToggle={toggleSelected}
        distributing={distributingIds.has(ticket.id)}
        now={now}
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
    return <LoadFailed message={error} onRetry={() => void fetchTickets()} testId="tickets-error" />;
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
    <VirtualGrid
      items={shown}
      cellHeight={TICKET_CARD_HEIGHT}
      minColumnWidth={MIN_CARD_WIDTH}
      maxColumns={MAX_COLUMNS}
      getKey={ticketKey}
      renderItem={renderCard}
      label="Tickets"
      testId="tickets-grid"
    />
  );
}
