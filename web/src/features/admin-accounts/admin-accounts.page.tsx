import { useMemo, useState } from 'react';
import type { AdminAccount } from '@seatlink/contracts';
import { LoadFailed, LoadingStatus } from '../../components/ui/load-states';
import { Badge } from '../../components/ui/badge';
import { cx } from '../../components/ui/cx';
import { EmptyState } from '../../components/ui/empty-state';
import { AccountsIcon, AlertIcon, TicketIcon, UsersIcon } from '../../components/ui/icons';
import { PageHeader } from '../../components/ui/page-header';
import { Pager } from '../../components/ui/pager';
import { SearchField } from '../../components/ui/search-field';
import { StatCard } from '../../components/ui/stat-card';
import { formatDateTime } from '../../lib/format';
import { syncStatus } from '../../lib/sync-status';
import { useNow } from '../../lib/use-now';
import { useAdminAccounts } from './admin-accounts.queries';
import { ADMIN_ACCOUNTS_PAGE_SIZE, adminAccountTotals, searchAdminAccounts } from './admin-accounts';

const TICKET_COLUMNS = ['Event', 'Section', 'Row', 'Seat', 'Status'] as const;

function AccountTickets({ account }: { account: AdminAccount }) {
  const tickets = account.tickets ?? [];
  if (tickets.length === 0) return <p className="px-4 pb-4 text-sm text-slate-600">No tickets found.</p>;
  return (
    // Focusable, so a keyboard can scroll it sideways on a narrow screen.
    <div
      className="relative overflow-x-auto border-t border-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-600"
      tabIndex={0}
      role="region"
      aria-label={`Tickets of ${account.email}`}
    >
      {/* On a phone each ticket is a card: its event and status, then section, row and seat side by side. */}
      <table className="stack-table min-w-full text-sm [--stack-columns:3]" data-testid="admin-account-tickets">
        <caption className="sr-only">Tickets of {account.email}</caption>
        <thead className="bg-slate-50">
          <tr>
            {TICKET_COLUMNS.map((column) => (
              <th
                key={column}
                scope="col"
                className="px-4 py-2 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase"
              >
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {tickets.map((ticket) => (
            <tr key={ticket.id} data-testid="admin-account-ticket">
              <td className="max-w-72 truncate px-4 py-2 text-slate-900 max-md:col-span-2" title={ticket.event_name}>
                {ticket.event_name}
              </td>
              <td className="px-4 py-2 whitespace-nowrap text-slate-700" data-label="Section">
                {ticket.section || 'N/A'}
              </td>
              <td className="px-4 py-2 whitespace-nowrap text-slate-700" data-label="Row">
                {ticket.row || 'N/A'}
              </td>
              <td className="px-4 py-2 whitespace-nowrap text-slate-700" data-label="Seat">
                {ticket.seat || 'N/A'}
              </td>
              <td className="px-4 py-2 whitespace-nowrap max-md:col-start-3 max-md:row-start-1 max-md:text-right">
                {ticket.is_distributed ? (
                  <Badge tone="green">Distributed</Badge>
                ) : (
                  <Badge tone="slate">Not Distributed</Badge>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function AdminAccountCard({ account, now }: { account: AdminAccount; now: number }) {
  const status = syncStatus(account.last_synced_at, now);
  const ticketCount = account.tickets?.length ?? account.ticket_count;
  const headingId = `admin-account-${account.id}`;
  return (
    <article
      aria-labelledby={headingId}
      className={cx(
        'overflow-hidden rounded-xl border bg-white shadow-sm',
        account.in_error_state ? 'border-red-300' : 'border-slate-200',
      )}
      data-testid="admin-account"
      data-email={account.email}
      data-owner={account.user?.email}
    >
      <div className="flex flex-wrap items-start justify-between gap-3 p-4">
        <div className="min-w-0">
          <h2 id={headingId} className="truncate text-base font-semibold text-slate-900">
            {account.name || account.email}
          </h2>
          <p className="truncate text-sm text-slate-600">{account.email}</p>
          <p className="mt-1 truncate text-sm text-slate-700" data-testid="admin-account-owner">
            <span className="text-slate-600">Owner:</span> {account.user?.email || '—'}
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {account.in_error_state ? <Badge tone="red">Authentication Required</Badge> : null}
          <span
            title={account.last_synced_at ? `Last synced ${formatDateTime(account.last_synced_at)}` : 'Never synced'}
          >
            <Badge tone={status.kind === 'recent' ? 'green' : 'amber'}>{status.label}</Badge>
          </span>
        </div>
      </div>
      <details className="group border-t border-slate-100">
        <summary className="flex cursor-pointer list-none items-center justify-between gap-2 px-4 py-2.5 text-sm font-medium text-indigo-700 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-indigo-600 [&::-webkit-details-marker]:hidden">
          <span data-testid="admin-account-ticket-count">
            Tickets ({ticketCount}) · {account.distributed_count} distributed
          </span>
          <span aria-hidden="true" className="transition-transform group-open:rotate-180">
            ▾
          </span>
        </summary>
        <AccountTickets account={account} />
      </details>
    </article>
  );
}

/**
 * /admin/accounts: every linked account with its owner's e-mail and its tickets (docs/reference.md "Admin screens").
 * Admins get account.updated and tickets.updated for every account: the list is read again on them
 * (app/realtime-bridge.tsx).
 */
export function AdminAccountsPage() {
  const { data, loading, error, retry } = useAdminAccounts();
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const now = useNow(30_000);

  const accounts = useMemo(() => data?.accounts ?? [], [data]);
  const totals = useMemo(() => adminAccountTotals(accounts), [accounts]);
  const found = useMemo(() => searchAdminAccounts(accounts, search), [accounts, search]);
  const pages = Math.max(1, Math.ceil(found.length / ADMIN_ACCOUNTS_PAGE_SIZE));
  const currentPage = Math.min(page, pages);
  const shown = found.slice((currentPage - 1) * ADMIN_ACCOUNTS_PAGE_SIZE, currentPage * ADMIN_ACCOUNTS_PAGE_SIZE);

  let content;
  if (error && !data) {
    content = <LoadFailed message={error} onRetry={() => void retry()} testId="admin-accounts-error" />;
  } else if (!data) {
    content = <LoadingStatus busy={loading} />;
  } else if (shown.length === 0) {
    content = (
      <EmptyState title="No accounts available" testId="admin-accounts-empty">
        {accounts.length > 0 ? 'No account matches this search.' : null}
      </EmptyState>
    );
  } else {
    content = (
      <>
        <ul aria-label="Accounts" className="space-y-3">
          {shown.map((account) => (
            <li key={account.id}>
              <AdminAccountCard account={account} now={now} />
            </li>
          ))}
        </ul>
        {found.length > ADMIN_ACCOUNTS_PAGE_SIZE ? (
          <Pager
            pagination={{ page: currentPage, limit: ADMIN_ACCOUNTS_PAGE_SIZE, total: found.length }}
            onPage={setPage}
          />
        ) : null}
      </>
    );
  }

  return (
    <>
      <PageHeader title="All Accounts" subtitle="Every linked wallet account, with its owner and its tickets." />
      <div className="mb-6 grid grid-cols-2 gap-4 xl:grid-cols-4">
        <StatCard label="Accounts" value={totals.accounts} valueTestId="admin-total-accounts" icon={<AccountsIcon />} />
        <StatCard label="Owners" value={totals.owners} valueTestId="admin-total-owners" icon={<UsersIcon />} />
        <StatCard label="Tickets" value={totals.tickets} valueTestId="admin-total-tickets" icon={<TicketIcon />} />
        <StatCard
          label="Needs Attention"
          value={totals.inError}
          valueTestId="admin-total-in-error"
          icon={<AlertIcon />}
        />
      </div>
      <SearchField
        id="admin-account-search"
        label="Search accounts"
        containerClassName="mb-4"
        placeholder="Search name, email or owner..."
        value={search}
        onChange={(event) => {
          setSearch(event.target.value);
          setPage(1);
        }}
      />
      {content}
    </>
  );
}
