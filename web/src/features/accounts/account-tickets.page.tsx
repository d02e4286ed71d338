import { useCallback, useState } from 'react';
import { toast } from '../../lib/toast';
import { Link, useParams } from 'react-router-dom';
import type { AccountTicket } from '@seatlink/contracts';
import { DistributionSettingsModal } from '../../components/distribution/distribution-settings-modal';
import type { RecipientTicket } from '../../components/distribution/recipients-field';
import { Alert } from '../../components/ui/alert';
import { LoadFailed, LoadingStatus } from '../../components/ui/load-states';
import { Button } from '../../components/ui/button';
import { EmptyState } from '../../components/ui/empty-state';
import { PageHeader } from '../../components/ui/page-header';
import { CardGrid } from '../../components/ui/card-grid';
import { useCreditsStore } from '../../lib/credits.store';
import {
  DISTRIBUTION_TEXTS,
  distributionCostOf,
  distributionStartedText,
  type DistributionSettings,
} from '../../lib/distribution';
import { countOf, formatDateTime } from '../../lib/format';
import { useSessionStore } from '../../lib/session.store';
import { useNow } from '../../lib/use-now';
import { ACCOUNT_TICKET_CARD_HEIGHT, AccountTicketCard } from './components/account-ticket-card';
import { useAccountTickets, useGenerateLink, useTicketLinks } from './use-accounts';

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
const accountCardHeight = () => ACCOUNT_TICKET_CARD_HEIGHT;

/** The ticket the settings are open for, as the recipient fields name it ("Section A · Row 3 · Seat 12"). */
function recipientTicketsOf(tickets: readonly AccountTicket[] | undefined, ticketId: string): RecipientTicket[] {
  const ticket = tickets?.find((t) => t.id === ticketId);
  if (!ticket) return [];
  const parts: Array<[string, string | null]> = [
    ['Section', ticket.section],
    ['Row', ticket.row],
    ['Seat', ticket.seat],
  ];
  const seat = parts
    .filter(([, value]) => value)
    .map(([name, value]) => `${name} ${value}`)
    .join(' · ');
  return [{ id: ticket.id, title: ticket.event_name, seat: seat || null }];
}

/**
 * /dashboard/accounts/{accountId}: one linked account and its tickets (docs/reference.md "Accounts screens"). The
 * account's query and the user's ticket list (each ticket's live link) follow live pushes (app/realtime-bridge.tsx).
 */
export function AccountTicketsPage() {
  const { accountId = '' } = useParams();
  const { data, notFound, error, retry } = useAccountTickets(accountId);
  const links = useTicketLinks();
  const { generate, distributing } = useGenerateLink();
  const balance = useCreditsStore((s) => s.balance);
  const cost = useSessionStore((s) => distributionCostOf(s.user));
  const now = useNow(30_000);
  /** The ticket the Distribution Settings modal is open for. */
  const [settingsFor, setSettingsFor] = useState<string | null>(null);
  const [generateError, setGenerateError] = useState<string | null>(null);

  const renderTicket = useCallback(
    (ticket: AccountTicket) => (
      // Keyed by the ticket: the grid's places pass from ticket to ticket as it scrolls (CardGrid), and a focused
      // button must not pass with them.
      <AccountTicketCard
        key={ticket.id}
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
    const outcome = await generate({ accountId, ticketId, settings });
    if (outcome.ok) toast.success(distributionStartedText(outcome.count));
    else {
      setGenerateError(outcome.message);
      toast.error(DISTRIBUTION_TEXTS.distributeFailedToast);
    }
  };

  let content;
  if (notFound) {
    content = (
      <EmptyState title="Account not found" testId="account-not-found">
        This account is not linked to your profile. It may have been deleted, or the link may be mistyped.
      </EmptyState>
    );
  } else if (error) {
    content = <LoadFailed message={error} onRetry={() => void retry()} testId="account-tickets-error" />;
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
      <CardGrid
        items={data.tickets}
        estimateCardHeight={accountCardHeight}
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
              {countOf(data.tickets.length, 'ticket')}
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
          tickets={recipientTicketsOf(data?.tickets, settingsFor)}
          onSubmit={(settings) => void onSettings(settings)}
          onClose={() => setSettingsFor(null)}
        />
      ) : null}
    </>
  );
}
