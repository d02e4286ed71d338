import { useState } from 'react';
import { Link } from 'react-router-dom';
import { toast } from '../../../lib/toast';
import type { Account } from '@seatlink/contracts';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { cx } from '../../../components/ui/cx';
import { AlertIcon, RefreshIcon, TrashIcon } from '../../../components/ui/icons';
import { ProgressBar } from '../../../components/ui/progress-bar';
import { countOf, formatCount, formatDateTime } from '../../../lib/format';
import { syncProgressBar, syncStatus, type SyncProgress } from '../account-rules';
import { ACCOUNT_MESSAGES } from '../accounts.queries';
import { useRemoveAccount } from '../use-accounts';
import { DistributionBar } from './distribution-bar';

export interface AccountCardProps {
  account: Account;
  /** Progress of a sync running now (account.sync pushes). */
  sync: SyncProgress | undefined;
  now: number;
  onReauthenticate: (account: Account) => void;
}

/** Under an account's figures: passes its wallet sent that the last sync could not read (so no ticket shows them). */
export function skippedPassesText(count: number): string {
  return count === 1
    ? '1 pass from this wallet could not be read and is not shown.'
    : `${countOf(count, 'pass', 'passes')} from this wallet could not be read and are not shown.`;
}

function SyncBadge({ account, syncing, now }: { account: Account; syncing: boolean; now: number }) {
  const status = syncStatus(account.last_synced_at, now);
  const title = account.last_synced_at ? `Last synced ${formatDateTime(account.last_synced_at)}` : 'Never synced';
  return (
    <span title={title} className="shrink-0" data-testid="sync-status" data-state={syncing ? 'syncing' : status.kind}>
      {syncing ? (
        <Badge tone="indigo">Syncing...</Badge>
      ) : (
        <Badge tone={status.kind === 'recent' ? 'green' : 'amber'}>{status.label}</Badge>
      )}
    </span>
  );
}

/**
 * One linked account (docs/reference.md "Accounts screens"): name, e-mail, sync status, ticket counts, distribution
 * bar, the progress of a running sync, and its actions. An account in error (`in_error_state`: the wallet refused its
 * sign-in, docs/reference.md "Wallet account states") carries the 'Authentication Required' banner with
 * Re-authenticate, the only place that offers it: a healthy account has nothing to sign in again for; one whose last sync gave up, the 'Sync Failed' banner with why (it keeps syncing; a sync that goes through
 * clears it); passes the wallet sent that could not be read are counted under its figures.
 */
export function AccountCard({ account, sync, now, onReauthenticate }: AccountCardProps) {
  const remove = useRemoveAccount();
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const syncing = sync !== undefined || account.syncing;
  const progress = syncProgressBar(sync, account.ticket_count);
  const headingId = `account-${account.id}`;

  const onDelete = async () => {
    setConfirming(false);
    setDeleting(true);
    const result = await remove(account.id);
    // On success the card is gone, and this component with it.
    if (result.ok) toast.success(ACCOUNT_MESSAGES.deleted);
    else {
      setDeleting(false);
      toast.error(result.message);
    }
  };

  return (
    <article
      aria-labelledby={headingId}
      className={cx(
        'flex flex-col overflow-hidden rounded-xl border bg-white shadow-sm',
        account.in_error_state ? 'border-red-300' : 'border-slate-200',
      )}
      data-testid="account-card"
      data-account-id={account.id}
      data-email={account.email}
    >
      {account.in_error_state ? (
        <div
          role="alert"
          className="flex flex-wrap items-center gap-3 border-b border-red-200 bg-red-50 px-4 py-3"
          data-testid="auth-required"
        >
          <AlertIcon className="h-5 w-5 self-start text-red-600" />
          <div className="min-w-48 flex-1">
            <p className="text-sm font-semibold text-red-800">Authentication Required</p>
            <p className="text-xs break-words text-red-700">
              {account.last_error || 'The wallet service no longer accepts this account’s sign-in.'}
            </p>
          </div>
          <Button
            size="sm"
            variant="danger"
            className="ml-8 sm:ml-0"
            onClick={() => onReauthenticate(account)}
            aria-label={`Re-authenticate ${account.email}`}
          >
            <RefreshIcon className="h-4 w-4" />
            Re-authenticate
          </Button>
        </div>
      ) : account.sync_error ? (
        <div
          role="alert"
          className="flex items-start gap-3 border-b border-amber-200 bg-amber-50 px-4 py-3"
          data-testid="sync-failed"
        >
          <AlertIcon className="h-5 w-5 shrink-0 text-amber-700" />
          <div className="min-w-0 flex-1">
            <p className="text-sm font-semibold text-amber-900">Sync Failed</p>
            <p className="text-xs break-words text-amber-800">{account.sync_error}</p>
          </div>
        </div>
      ) : null}

      <div className="flex flex-1 flex-col gap-4 p-5">
        <header className="flex items-start justify-between gap-3">
          <div className="min-w-0">
            <h2 id={headingId} className="truncate text-base font-semibold text-slate-900" title={account.name}>
              {account.name || account.email}
            </h2>
            <p className="truncate text-sm text-slate-600" title={account.email} data-testid="account-email">
              {account.email}
            </p>
          </div>
          <SyncBadge account={account} syncing={syncing} now={now} />
        </header>

        <dl className="grid grid-cols-2 gap-3">
          <div className="rounded-lg bg-slate-50 px-3 py-2">
            <dt className="text-xs text-slate-600">Tickets</dt>
            <dd className="text-lg font-semibold text-slate-900 tabular-nums" data-testid="account-ticket-count">
              {formatCount(account.ticket_count)}
            </dd>
          </div>
          <div className="rounded-lg bg-slate-50 px-3 py-2">
            <dt className="text-xs text-slate-600">Distributed</dt>
            <dd className="text-lg font-semibold text-slate-900 tabular-nums" data-testid="account-distributed-count">
              {formatCount(account.distributed_count)}
            </dd>
          </div>
        </dl>

        {account.skipped_passes > 0 ? (
          <p className="text-xs text-amber-800" data-testid="skipped-passes">
            {skippedPassesText(account.skipped_passes)}
          </p>
        ) : null}

        <DistributionBar account={account} />

        {syncing ? (
          <div data-testid="sync-progress">
            <p className="mb-1 text-xs text-slate-600" aria-hidden="true">
              {progress.text}
            </p>
            <ProgressBar
              value={progress.value}
              max={progress.max}
              tone="indigo"
              label={`Sync of ${account.email}`}
              valueText={progress.text}
            />
          </div>
        ) : null}

        <footer className="mt-auto flex flex-wrap items-center justify-between gap-2 border-t border-slate-100 pt-4">
          <Link
            to={`/dashboard/accounts/${encodeURIComponent(account.id)}`}
            className="rounded text-sm font-medium text-indigo-600 hover:text-indigo-500 focus-visible:outline-2 focus-visible:outline-indigo-600"
            aria-label={`View tickets of ${account.email}`}
          >
            View tickets <span aria-hidden="true">→</span>
          </Link>
          <div className="flex gap-2">
            <Button
              size="sm"
              variant="secondary"
              disabled={deleting}
              aria-busy={deleting}
              onClick={() => setConfirming(true)}
              aria-label={`Delete ${account.email}`}
              title="Delete account"
            >
              <TrashIcon className="h-4 w-4" />
              Delete
            </Button>
          </div>
        </footer>
      </div>

      {confirming ? (
        <ConfirmDialog
          title="Delete this account?"
          message={
            <>
              <span className="font-medium text-slate-900">{account.email}</span> will be unlinked, and its tickets will
              leave your overview. You can link it again later.
            </>
          }
          confirmLabel="Delete account"
          onConfirm={() => void onDelete()}
          onCancel={() => setConfirming(false)}
        />
      ) : null}
    </article>
  );
}
