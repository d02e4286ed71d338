import { useCallback, useMemo, useState } from 'react';
import type { Account } from '@seatlink/contracts';
import { LoadFailed, LoadingStatus } from '../../components/ui/load-states';
import { Button } from '../../components/ui/button';
import { EmptyState } from '../../components/ui/empty-state';
import { AccountsIcon, AlertIcon, ChartIcon, PlusIcon, TicketIcon } from '../../components/ui/icons';
import { PageHeader } from '../../components/ui/page-header';
import { StatCard } from '../../components/ui/stat-card';
import { useNow } from '../../lib/use-now';
import { formatCount } from '../../lib/format';
import {
  accountTotals,
  DEFAULT_ACCOUNT_SORT,
  nextAccountSort,
  visibleAccounts,
  type AccountFilter,
  type AccountSort,
} from './account-rules';
import { AccountCard } from './components/account-card';
import { AccountsToolbar } from './components/accounts-toolbar';
import { AddAccountsDialog } from './components/add-accounts-dialog';
import { ReauthDialog } from './components/reauth-dialog';
import { useAccounts } from './use-accounts';

/**
 * /dashboard/accounts: the Accounts overview (docs/reference.md "Accounts screens"). The accounts come from the account
 * list query, which live pushes keep current (app/realtime-bridge.tsx); a running sync's progress comes from its
 * `account.sync` pushes.
 */
export function AccountsPage() {
  const { accounts, loaded, error, retry, syncs } = useAccounts();
  const [search, setSearch] = useState('');
  const [filter, setFilter] = useState<AccountFilter>('all');
  const [sort, setSort] = useState<AccountSort>(DEFAULT_ACCOUNT_SORT);
  const [adding, setAdding] = useState(false);
  const [reauthing, setReauthing] = useState<Account | null>(null);
  const now = useNow(30_000);

  const totals = useMemo(() => accountTotals(accounts), [accounts]);
  const shown = useMemo(() => visibleAccounts(accounts, { search, filter, sort }), [accounts, search, filter, sort]);
  const openReauth = useCallback((account: Account) => setReauthing(account), []);
  // The dialog follows the account as it changes (it may leave its error state meanwhile).
  const reauthAccount = reauthing ? (accounts.find((a) => a.id === reauthing.id) ?? reauthing) : null;

  let content;
  if (error && !loaded) {
    content = <LoadFailed message={error} onRetry={() => void retry()} testId="accounts-error" />;
  } else if (!loaded) {
    content = <LoadingStatus />;
  } else if (shown.length === 0) {
    content = (
      <EmptyState title="No accounts available" testId="accounts-empty">
        {accounts.length === 0 ? (
          <>
            <p>Link a wallet account and its tickets sync here.</p>
            <Button size="sm" className="mt-4" onClick={() => setAdding(true)}>
              <PlusIcon className="h-4 w-4" />
              Add Accounts
            </Button>
          </>
        ) : (
          <>
            <p>No account matches this search or filter.</p>
            <Button
              size="sm"
              variant="secondary"
              className="mt-4"
              onClick={() => {
                setSearch('');
                setFilter('all');
              }}
            >
              Clear Filters
            </Button>
          </>
        )}
      </EmptyState>
    );
  } else {
    content = (
      <ul aria-label="Accounts" className="grid grid-cols-1 gap-4 lg:grid-cols-2 2xl:grid-cols-3">
        {shown.map((account) => (
          <li key={account.id} className="flex min-w-0 flex-col [&>article]:flex-1">
            <AccountCard account={account} sync={syncs[account.id]} now={now} onReauthenticate={openReauth} />
          </li>
        ))}
      </ul>
    );
  }

  return (
    <>
      <PageHeader
        title="Accounts"
        subtitle="Linked wallet accounts. Tickets can take up to 15 minutes to appear after syncing."
        actions={
          <Button onClick={() => setAdding(true)}>
            <PlusIcon className="h-4 w-4" />
            Add Accounts
          </Button>
        }
      />

      <div className="grid grid-cols-2 gap-4 xl:grid-cols-4">
        <StatCard
          label="Accounts"
          value={formatCount(totals.accounts)}
          valueTestId="total-accounts"
          icon={<AccountsIcon />}
        />
        <StatCard
          label="Tickets"
          value={formatCount(totals.tickets)}
          valueTestId="total-account-tickets"
          icon={<TicketIcon />}
        />
        <StatCard
          label="Distributed"
          value={formatCount(totals.distributed)}
          valueTestId="total-distributed"
          icon={<ChartIcon />}
        />
        <StatCard
          label="Needs Attention"
          value={formatCount(totals.needsAttention)}
          valueTestId="total-needs-attention"
          icon={<AlertIcon />}
        />
      </div>

      <section
        aria-label="Search and sort"
        className="mt-8 mb-4 rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
      >
        <AccountsToolbar
          search={search}
          filter={filter}
          sort={sort}
          onSearch={setSearch}
          onFilter={setFilter}
          onSort={(key) => setSort((current) => nextAccountSort(current, key))}
        />
      </section>

      {content}

      {adding ? <AddAccountsDialog onClose={() => setAdding(false)} /> : null}
      {reauthAccount ? <ReauthDialog account={reauthAccount} onClose={() => setReauthing(null)} /> : null}
    </>
  );
}
