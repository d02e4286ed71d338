import { useCallback, useEffect, useState } from 'react';
import toast from 'react-hot-toast';
import { Link, useParams } from 'react-router-dom';
import type { AccountTicket } from '@seatlink/contracts';
import { DistributionSettingsModal } from '../../components/distribution/distribution-settings-modal';
import { Alert } from '../../components/ui/alert';
import { LoadFailed, LoadingStatus } from '../../components/ui/load-states';
import { Button } from '../../components/ui/button';
import { EmptyState } from '../../components/ui/empty-state';
import { PageHeader } from '../../components/ui/page-header';
import { VirtualGrid } from '../../components/ui/virtual-grid';
import { useCreditsStore } from '../../lib/credits.store';
import {
  DISTRIBUTION_TEXTS,
  distributionCostOf,
  distributionStartedText,
  type DistributionSettings,
} from '../../lib/distribution';
import { formatDateTime } from '../../lib/format';
import { useServerEvent } from '../../lib/realtime';
import { useSessionStore } from '../../lib/session.store';
import { useDebouncedCallback } from '../../lib/use-debounced-callback';
import { useNow } from '../../lib/use-now';
import { useAccountLinksStore } from './account-links.store';
import { useAccountTicketsStore } from './account-tickets.store';
import { ACCOUNT_TICKET_CARD_HEIGHT, AccountTicketCard } from './components/account-ticket-card';

const LIVE_REFRESH_MS = 300;

const linkClass =
  'inline-flex items-center gap-1 text-sm font-medium text-indigo-600 hover:text-indigo-500 focus-visible:outline-2 focus-visible:outline-indigo-600';

function BackLink() {
  return (
    <Link to="/dashboard/accounts" className={`${linkClass} mb-4`}>
      <span aria-hidden="true">←</span> Back to Accounts
    </Link>
  );
}

const ticketKey = (ticket: AccountTicket) => ticket.id;

/** /dashboard/accounts/{accountId}: one linked account and its tickets (SPEC.md §2 "Account tickets page"). */
export function AccountTicketsPage() {
  const { accountId = '' } = useParams();
  const state = useAccountTicketsStore();
  const fetchTickets = useAccountTicketsStore((s) => s.fetch);
  const current = state.param === accountId;
  const data = current ? state.data : null;

  const links = useAccountLinksStore((s) => s.byTicket);
  const distributing = useAccountLinksStore((s) => s.distributing);
  const { fetch: fetchLinks, generate, applyClicks } = useAccountLinksStore.getState();
  const balance = useCreditsStore((s) => s.balance);
  const cost = useSessionStore((s) => distributionCostOf(s.user));
  const now = useNow(30_000);
  /** The ticket the Distribution Settings modal is open for. */
  const [settingsFor, setSettingsFor] = useState<string | null>(null);
  const [generateError, setGenerateError] = useState<string | null>(null);

  useEffect(() => {
    void fetchTickets(accountId);
    void fetchLinks();
  }, [accountId, fetchTickets, fetchLinks]);

  const refresh = useDebouncedCallback(
    useCallback(() => {
      void fetchTickets(accountId, { silent: true });
      void fetchLinks();
    }, [accountId, fetchTickets, fetchLinks]),
    LIVE_REFRESH_MS,
  );
  useServerEvent('tickets.updated', ({ account_id }) => account_id === accountId && refresh());
  useServerEvent('account.updated', ({ account_id }) => account_id === accountId && refresh());
  useServerEvent('connect', refresh);
  // A click changes a count in place; a link made or recalled elsewhere re-reads the cards.
  useServerEvent('distribution.updated', ({ ticket_id, distribution_id, clicks }) => {
    if (clicks !== undefined) applyClicks(ticket_id, distribution_id, clicks);
    else refresh();
  });

  const renderTicket = useCallback(
    (ticket: AccountTicket) => (
      <AccountTicketCard
        ticket={ticket}
        info={links[ticket.id]}
        distributing={distributing.has(ticket.id)}
        balance={balance}
        cost={cost}
        now={now}
        onGenerate={setSettingsFor}
      />
    ),
    [links, distributing, balance, cost, now],
  );

  const onSettings = async (settings: DistributionSettings) => {
    const ticketId = settingsFor;
    setSettingsFor(null);
    setGenerateError(null);
    if (!ticketId) return;
    const outcome = await generate(ticketId, settings);
    if (outcome.ok) toast.success(distributionStartedText(outcome.count));
    else {
      setGenerateError(outcome.message);
      toast.error(DISTRIBUTION_TEXTS.distributeFailedToast);
    }
    void fetchTickets(accountId, { silent: true });
  };

  // A missing account (or an address that is no account id at all: 400) is not found.
  const notFound = current && !data && (state.errorStatus === 404 || state.errorStatus === 400);

  let content;
  if (notFound) {
    content = (
      <EmptyState title="Account not found" testId="account-not-found">
        This account is not linked to your profile. It may have been deleted, or the link may be mistyped.
      </EmptyState>
    );
  } else if (current && state.error && !data) {
    content = (
      <LoadFailed message={state.error} onRetry={() => void fetchTickets(accountId)} testId="account-tickets-error" />
    );
  } else if (!data) {
    content = <LoadingStatus />;
  } else if (data.tickets.length === 0) {
    content = (
      <EmptyState title="No tickets found.">
        Tickets of this account show here once it has synced. Tickets can take up to 15 minutes to appear after syncing.
      </EmptyState>
    );
  } else {
    content = (
      <VirtualGrid
        items={data.tickets}
        cellHeight={ACCOUNT_TICKET_CARD_HEIGHT}
        minColumnWidth={240}
        maxColumns={4}
        getKey={ticketKey}
        renderItem={renderTicket}
        label={`Tickets of ${data.account.email}`}
        testId="account-tickets-grid"
      />
    );
  }

  const account = data?.account;
  return (
    <>
      <BackLink />
      <PageHeader
        title={account ? account.name || account.email : 'Account Tickets'}
        subtitle={
          account ? (
            <>
              <span className="block">{account.email}</span>
              <span className="block" data-testid="account-last-synced">
                Last synced: {account.last_synced_at ? formatDateTime(account.last_synced_at) : 'never'}
              </span>
            </>
          ) : null
        }
        actions={
          data ? (
            <p className="text-sm text-slate-600" data-testid="account-ticket-total">
              {data.tickets.length} {data.tickets.length === 1 ? 'ticket' : 'tickets'}
            </p>
          ) : null
        }
      />
      {account?.in_error_state ? (
        <Alert tone="warning" className="mb-4">
          Authentication Required: re-authenticate this account on the{' '}
          <Link to="/dashboard/accounts" className="font-medium underline">
            Accounts
          </Link>{' '}
          page so its tickets keep syncing.
        </Alert>
      ) : null}
      {generateError ? (
        <Alert tone="error" className="mb-4 flex items-start justify-between gap-3" data-testid="distribution-error">
          <span>{generateError}</span>
          <Button size="sm" variant="ghost" onClick={() => setGenerateError(null)}>
            Dismiss
          </Button>
        </Alert>
      ) : null}
      <div data-testid="account-tickets" data-account-id={accountId}>
        {content}
      </div>
      {settingsFor ? (
        <DistributionSettingsModal
          count={1}
          cost={cost}
          balance={balance}
          onSubmit={(settings) => void onSettings(settings)}
          onClose={() => setSettingsFor(null)}
        />
      ) : null}
    </>
  );
}
