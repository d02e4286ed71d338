import { useState, type ReactNode } from 'react';
import { routes } from '@seatlink/contracts';
import { DownloadIcon } from '../../components/ui/icons';
import { useCreditsStore } from '../../lib/credits.store';
import { useMediaQuery } from '../../lib/use-media-query';
import { BulkDistribution } from './components/bulk-distribution';
import { TicketFiltersBar } from './components/ticket-filters-bar';
import { FiltersToggle, TicketFiltersPanel } from './components/ticket-filters-panel';
import { TicketProblems } from './components/ticket-problems';
import { TicketSortControl } from './components/ticket-sort-control';
import { TicketsCount } from './components/tickets-count';
import { TicketsOverviewHeader } from './components/tickets-overview-header';
import { TicketsStatsRow } from './components/tickets-stats-row';
import { TicketsView } from './components/tickets-view';
import { ViewToggle } from './components/view-toggle';
import { useFilteredTickets } from './hooks/use-filtered-tickets';
import { useTicketsStore } from './tickets.store';

/** docs/reference.md "Limits and constants": under this width the view is forced to grid and the toggle hidden. */
const SMALL_SCREEN = '(max-width: 767px)';

/**
 * /dashboard (index): the Tickets Overview (docs/reference.md "Tickets Overview screen"): stats, filters, the grid or
 * list of tickets, selection and the bottom bar that distributes the selected ones through the Distribution Settings
 * modal. The tickets come from the ticket list query, which live pushes keep current (app/realtime-bridge.tsx): a click
 * changes its one card, a change of tickets or links reads only what changed.
 */
export function TicketsOverviewPage({ topUp }: { topUp?: ReactNode } = {}) {
  const balance = useCreditsStore((s) => s.balance);
  const view = useTicketsStore((s) => s.view);
  const { setFilters, setView, setSort } = useTicketsStore.getState();
  const { tickets, complete, loaded, filters, shown, sort, accounts, filtered } = useFilteredTickets();
  const smallScreen = useMediaQuery(SMALL_SCREEN);
  // On a phone the filters are behind one control, so the first ticket shows on the first screen.
  const [filtersOpen, setFiltersOpen] = useState(false);
  const filtersHidden = smallScreen && !filtersOpen;
  // The list sorts by its column headers; the grid (and so a phone) has the Sort by control instead.
  const shownView = smallScreen ? 'grid' : view;
  const filtersPanel = (
    <TicketFiltersPanel hidden={filtersHidden} className={smallScreen ? 'mb-4' : 'mt-8'}>
      {filtersHidden ? null : (
        <TicketFiltersBar filters={filters} tickets={tickets} linkedAccounts={accounts} onChange={setFilters} />
      )}
    </TicketFiltersPanel>
  );

  return (
    <>
      <TicketsOverviewHeader />
      <TicketsStatsRow balance={balance} tickets={tickets} topUp={topUp} />

      {smallScreen ? null : filtersPanel}

      {/* As many lines whatever the count says: on a phone the count has a line of its own, above the controls; wider,
          one line. A count that wrapped while the list was loading and not once it was in moved every ticket below. */}
      <div className="mt-4 mb-4 flex min-h-9 flex-wrap items-center justify-between gap-x-3 gap-y-2">
        <TicketsCount
          total={tickets.length}
          loaded={loaded}
          complete={complete}
          shown={shown.length}
          filtered={filtered}
        />
        <div className="flex shrink-0 items-center gap-2 max-sm:ml-auto">
          {shownView === 'grid' && !smallScreen ? <TicketSortControl sort={sort} onChange={setSort} /> : null}
          <a
            href={routes.exportLinks.path}
            download
            className="inline-flex items-center gap-1.5 rounded-lg px-2.5 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
            data-testid="export-links"
          >
            <DownloadIcon className="h-4 w-4" />
            Export links
          </a>
          {smallScreen ? (
            <FiltersToggle open={filtersOpen} onToggle={() => setFiltersOpen((open) => !open)} filters={filters} />
          ) : (
            <ViewToggle view={view} onChange={setView} />
          )}
        </div>
      </div>
      {/* On a phone the sort has a line of its own under the controls, the same whatever is set. */}
      {smallScreen ? <TicketSortControl sort={sort} onChange={setSort} wide className="mb-4" /> : null}
      {smallScreen ? filtersPanel : null}

      <TicketProblems />
      <TicketsView
        shown={shown}
        total={tickets.length}
        loaded={loaded}
        view={shownView}
        sort={sort}
        filtered={filtered}
      />

      {/* In the flow after the tickets (sticky at the bottom): it never covers the last of them. */}
      <BulkDistribution />
    </>
  );
}
