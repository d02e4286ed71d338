import { useCallback, useDeferredValue, useEffect, useMemo, useState, type ReactNode } from 'react';
import toast from 'react-hot-toast';
import { Link } from 'react-router-dom';
import type { Ticket } from '@seatlink/contracts';
import { DistributionSettingsModal } from '../../components/distribution/distribution-settings-modal';
import { Alert } from '../../components/ui/alert';
import { LoadFailed, LoadingStatus } from '../../components/ui/load-states';
import { Button } from '../../components/ui/button';
import { EmptyState } from '../../components/ui/empty-state';
import { CloseIcon } from '../../components/ui/icons';
import { PageHeader } from '../../components/ui/page-header';
import { VirtualGrid } from '../../components/ui/virtual-grid';
import { useCreditsStore } from '../../lib/credits.store';
import {
  DISTRIBUTION_TEXTS,
  distributeButtonState,
  distributionCostOf,
  distributionStartedText,
  type DistributionSettings,
} from '../../lib/distribution';
import { useSessionStore } from '../../lib/session.store';
import { useDebouncedCallback } from '../../lib/use-debounced-callback';
import { useMediaQuery } from '../../lib/use-media-query';
import { useNow } from '../../lib/use-now';
import { useServerEvent } from '../../lib/realtime';
import { DistributeBar } from './components/distribute-bar';
import { TICKET_CARD_HEIGHT, TicketCard } from './components/ticket-card';
import { TicketFiltersBar } from './components/ticket-filters-bar';
import { TicketsList } from './components/tickets-list';
import { TicketsStatsRow } from './components/tickets-stats-row';
import { ViewToggle } from './components/view-toggle';
import { computeTicketStats } from './ticket-stats';
import { accountOptions, eventOptions, hasActiveFilters, visibleTickets } from './ticket-filters';
import { useTicketsStore, type DistributionProblem } from './tickets.store';

/** SPEC.md §9: under this width the view is forced to grid and the toggle hidden. */
const SMALL_SCREEN = '(max-width: 767px)';
/** Pushes that arrive together (a sync touches many tickets) cause one reload. */
const LIVE_REFRESH_MS = 400;
/** Cards are at least this wide; the grid has 1 to 4 columns by the width it has (SPEC.md §2). */
const MIN_CARD_WIDTH = 272;
const MAX_COLUMNS = 4;

const ticketKey = (ticket: Ticket) => ticket.id;

/** A dismissible red box above the tickets: a distribution or a recall that failed, and why. */
function ProblemAlert({ testId, onDismiss, children }: { testId: string; onDismiss: () => void; children: ReactNode }) {
  return (
    <Alert tone="error" className="mb-4 flex items-start justify-between gap-3" data-testid={testId}>
      <div className="min-w-0">{children}</div>
      <button
        type="button"
        onClick={onDismiss}
        aria-label="Dismiss"
        className="-m-1 shrink-0 rounded p-1 text-red-700 hover:bg-red-100 focus-visible:outline-2 focus-visible:outline-red-600"
      >
        <CloseIcon className="h-4 w-4" />
      </button>
    </Alert>
  );
}

/**
 * Why a distribution failed: the headline (the server's message, or 'Failed to generate distribution link'), the
 * tickets it names, and each other ticket refused with its own reason.
 */
function DistributionProblemText({
  problem,
  titleOf,
}: {
  problem: DistributionProblem;
  titleOf: ReadonlyMap<string, string>;
}) {
  const title = (ticketId: string) => titleOf.get(ticketId) ?? 'A ticket';
  const sameReason = problem.failed.filter((f) => f.message === problem.message);
  const otherReasons = problem.failed.filter((f) => f.message !== problem.message);
  return (
    <>
      <p className="font-medium">{problem.message}</p>
      {sameReason.length > 0 ? (
        <p className="mt-1" data-testid="distribution-error-tickets">
          Not distributed: {sameReason.map((f) => title(f.ticket_id)).join(', ')}
        </p>
      ) : null}
      {otherReasons.length > 0 ? (
        <ul className="mt-1 list-disc space-y-0.5 pl-5">
          {otherReasons.map((failure) => (
            <li key={failure.ticket_id}>
              {title(failure.ticket_id)}: {failure.message}
            </li>
          ))}
        </ul>
      ) : null}
    </>
  );
}

/**
 * /dashboard (index): the Tickets Overview (SPEC.md §2): stats, filters, the grid or list of tickets, selection and the
 * bottom bar that distributes the selected ones through the Distribution Settings modal; links, their clicks and
 * balance follow live pushes.
 */
export function TicketsOverviewPage({ topUp }: { topUp?: ReactNode } = {}) {
  const balance = useCreditsStore((s) => s.balance);
  const tickets = useTicketsStore((s) => s.tickets);
  const loading = useTicketsStore((s) => s.loading);
  const loaded = useTicketsStore((s) => s.loaded);
  const error = useTicketsStore((s) => s.error);
  const accounts = useTicketsStore((s) => s.accounts);
  const filters = useTicketsStore((s) => s.filters);
  const view = useTicketsStore((s) => s.view);
  const sort = useTicketsStore((s) => s.sort);
  const selectedIds = useTicketsStore((s) => s.selectedIds);
  const distributingIds = useTicketsStore((s) => s.distributingIds);
  const distributionProblem = useTicketsStore((s) => s.distributionProblem);
  const recallProblem = useTicketsStore((s) => s.recallProblem);
  const {
    fetchTickets,
    fetchAccounts,
    setFilters,
    clearFilters,
    setView,
    sortBy,
    toggleSelected,
    setSelected,
    clearSelection,
    distribute,
    applyClicks,
    dismissDistributionProblem,
    dismissRecallProblem,
  } = useTicketsStore.getState();
  const costPerTicket = useSessionStore((s) => distributionCostOf(s.user));
  const smallScreen = useMediaQuery(SMALL_SCREEN);
  const effectiveView = smallScreen ? 'grid' : view;
  const now = useNow(30_000);
  /** The tickets the open Distribution Settings modal is for (those eligible when it opened). */
  const [settingsFor, setSettingsFor] = useState<string[] | null>(null);

  useEffect(() => {
    void fetchTickets();
    void fetchAccounts();
  }, [fetchTickets, fetchAccounts]);

  const refresh = useDebouncedCallback(
    useCallback(() => {
      void fetchTickets({ silent: true });
      void fetchAccounts();
    }, [fetchTickets, fetchAccounts]),
    LIVE_REFRESH_MS,
  );
  useServerEvent('tickets.updated', refresh);
  useServerEvent('account.updated', refresh);
  // A click changes one count in place; a link made or recalled (here or in another tab) re-reads the tickets.
  useServerEvent('distribution.updated', ({ ticket_id, distribution_id, clicks }) => {
    if (clicks !== undefined) applyClicks(ticket_id, distribution_id, clicks);
    else refresh();
  });
  // After a reconnect a push may have been missed.
  useServerEvent('connect', refresh);

  // Typing stays responsive: the list follows the filters at a lower priority than the input.
  const deferredFilters = useDeferredValue(filters);
  const shown = useMemo(() => visibleTickets(tickets, deferredFilters, sort), [tickets, deferredFilters, sort]);
  const stats = useMemo(() => computeTicketStats(tickets), [tickets]);
  const events = useMemo(() => eventOptions(tickets), [tickets]);
  const accountChoices = useMemo(() => accountOptions(accounts, tickets), [accounts, tickets]);
  const filtered = hasActiveFilters(filters);

  const selectedTickets = useMemo(() => tickets.filter((t) => selectedIds.has(t.id)), [tickets, selectedIds]);
  const button = distributeButtonState(selectedTickets, balance, costPerTicket);
  const titleOf = useMemo(() => new Map(tickets.map((t) => [t.id, t.title])), [tickets]);

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

  const openSettings = () => {
    if (button.eligibleIds.length === 0) {
      toast.error(DISTRIBUTION_TEXTS.noValidTickets);
      return;
    }
    setSettingsFor(button.eligibleIds);
  };

  const onSettings = async (settings: DistributionSettings) => {
    // Only what is still eligible is sent: a live push may have changed a ticket while the modal was open.
    const stillEligible = new Set(button.eligibleIds);
    const ids = (settingsFor ?? []).filter((id) => stillEligible.has(id));
    setSettingsFor(null);
    const outcome = await distribute(ids, settings);
    if (outcome.ok) toast.success(distributionStartedText(outcome.count));
    else toast.error(DISTRIBUTION_TEXTS.distributeFailedToast);
  };

  let content;
  if (error && !loaded) {
    content = <LoadFailed message={error} onRetry={() => void fetchTickets()} testId="tickets-error" />;
  } else if (!loaded) {
    content = <LoadingStatus />;
  } else if (shown.length === 0) {
    content = (
      <EmptyState title="No Tickets Found" testId="tickets-empty">
        {tickets.length > 0 || filtered ? (
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
  } else if (effectiveView === 'list') {
    content = (
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
  } else {
    content = (
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

  return (
    <>
      <PageHeader title="Tickets Overview" subtitle="Tickets can take up to 15 minutes to appear after syncing." />
      <TicketsStatsRow balance={balance} stats={stats} topUp={topUp} />

      <section aria-label="Filters" className="mt-8 rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
        <TicketFiltersBar filters={filters} accounts={accountChoices} events={events} onChange={setFilters} />
      </section>

      <div className="mt-4 mb-4 flex min-h-9 flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-slate-600" role="status" aria-live="polite" data-testid="tickets-count">
          {loaded ? (
            filtered ? (
              <>
                Showing {shown.length.toLocaleString('en-GB')} of {tickets.length.toLocaleString('en-GB')} tickets
              </>
            ) : (
              <>
                {tickets.length.toLocaleString('en-GB')} {tickets.length === 1 ? 'ticket' : 'tickets'}
              </>
            )
          ) : null}
          {loading && loaded ? <span className="sr-only"> (refreshing)</span> : null}
        </p>
        {smallScreen ? null : <ViewToggle view={view} onChange={setView} />}
      </div>

      {error && loaded ? (
        <Alert tone="error" className="mb-4" data-testid="tickets-error">
          {error}
        </Alert>
      ) : null}
      {distributionProblem ? (
        <ProblemAlert testId="distribution-error" onDismiss={dismissDistributionProblem}>
          <DistributionProblemText problem={distributionProblem} titleOf={titleOf} />
        </ProblemAlert>
      ) : null}
      {recallProblem ? (
        <ProblemAlert testId="recall-error" onDismiss={dismissRecallProblem}>
          <p>
            {titleOf.has(recallProblem.ticketId) ? `${titleOf.get(recallProblem.ticketId)}: ` : null}
            {recallProblem.message}
          </p>
        </ProblemAlert>
      ) : null}
      <div className={selectedIds.size > 0 ? 'pb-36 sm:pb-24' : undefined}>{content}</div>

      {selectedIds.size > 0 ? (
        <DistributeBar
          selectedCount={selectedIds.size}
          button={button}
          onDistribute={openSettings}
          onClear={clearSelection}
        />
      ) : null}
      {settingsFor ? (
        <DistributionSettingsModal
          count={settingsFor.length}
          cost={settingsFor.length * costPerTicket}
          balance={balance}
          onSubmit={(settings) => void onSettings(settings)}
          onClose={() => setSettingsFor(null)}
        />
      ) : null}
    </>
  );
}
