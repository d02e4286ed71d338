import type { Account, LinkAccountRequest } from '@seatlink/contracts';
import { MAX_BATCH_ACCOUNTS } from '@seatlink/contracts';
import { countOf } from '../../lib/format';

export { RECENT_SYNC_MS, syncStatus, type SyncStatus } from '../../lib/sync-status';

/** Share of an account's tickets that are distributed, 0 to 100 (not rounded; 0 without tickets). */
export function distributionPercent(account: Pick<Account, 'ticket_count' | 'distributed_count'>): number {
  if (!(account.ticket_count > 0) || !(account.distributed_count > 0)) return 0;
  return Math.min(100, (account.distributed_count / account.ticket_count) * 100);
}

export type DistributionTone = 'green' | 'blue' | 'yellow';

/**
 * docs/reference.md "Limits and constants": the account distribution bar is green at 100 %, blue above 50 %, else
 * yellow.
 */
export function distributionTone(percent: number): DistributionTone {
  if (percent >= 100) return 'green';
  if (percent > 50) return 'blue';
  return 'yellow';
}

/** docs/reference.md "Accounts screens": all; distributed = fully distributed; pending = distribution pending. */
export type AccountFilter = 'all' | 'distributed' | 'pending';

export const ACCOUNT_FILTER_OPTIONS: ReadonlyArray<{ value: AccountFilter; label: string }> = [
  { value: 'all', label: 'All Accounts' },
  { value: 'distributed', label: 'Fully Distributed' },
  { value: 'pending', label: 'Distribution Pending' },
];

/** Every ticket distributed (an account without tickets has nothing distributed, and nothing pending). */
export function isFullyDistributed(account: Pick<Account, 'ticket_count' | 'distributed_count'>): boolean {
  return account.ticket_count > 0 && account.distributed_count >= account.ticket_count;
}

/** Some tickets still wait for a link. */
export function isDistributionPending(account: Pick<Account, 'ticket_count' | 'distributed_count'>): boolean {
  return account.distributed_count < account.ticket_count;
}

export type AccountSortKey = 'name' | 'tickets' | 'distribution';
export interface AccountSort {
  key: AccountSortKey;
  direction: 'asc' | 'desc';
}

export const ACCOUNT_SORT_OPTIONS: ReadonlyArray<{ key: AccountSortKey; label: string }> = [
  { key: 'name', label: 'Name' },
  { key: 'tickets', label: 'Tickets' },
  { key: 'distribution', label: 'Distribution' },
];

export const DEFAULT_ACCOUNT_SORT: AccountSort = { key: 'name', direction: 'asc' };

/** A sort button pressed: the same one again reverses; another starts A–Z for names, most first for figures. */
export function nextAccountSort(current: AccountSort, key: AccountSortKey): AccountSort {
  if (current.key === key) return { key, direction: current.direction === 'asc' ? 'desc' : 'asc' };
  return { key, direction: key === 'name' ? 'asc' : 'desc' };
}

const collator = new Intl.Collator('en-GB', { sensitivity: 'base', numeric: true });

export interface AccountView {
  search: string;
  filter: AccountFilter;
  sort: AccountSort;
}

/** The accounts the overview shows: searched by name and e-mail, filtered, sorted (ties by name, then e-mail). */
export function visibleAccounts<A extends Account>(accounts: readonly A[], { search, filter, sort }: AccountView): A[] {
  const needle = search.trim().toLowerCase();
  const shown = accounts.filter((account) => {
    if (filter === 'distributed' && !isFullyDistributed(account)) return false;
    if (filter === 'pending' && !isDistributionPending(account)) return false;
    if (!needle) return true;
    return `${account.name}\n${account.first_name} ${account.last_name}\n${account.email}`
      .toLowerCase()
      .includes(needle);
  });
  const byName = (a: A, b: A) => collator.compare(a.name, b.name) || collator.compare(a.email, b.email);
  const sign = sort.direction === 'asc' ? 1 : -1;
  const compare: (a: A, b: A) => number =
    sort.key === 'tickets'
      ? (a, b) => sign * (a.ticket_count - b.ticket_count) || byName(a, b)
      : sort.key === 'distribution'
        ? (a, b) =>
            sign * (distributionPercent(a) - distributionPercent(b)) ||
            sign * (a.ticket_count - b.ticket_count) ||
            byName(a, b)
        : (a, b) => sign * byName(a, b);
  return shown.sort(compare);
}

export interface AccountTotals {
  accounts: number;
  tickets: number;
  distributed: number;
  /** Accounts in error: they need the user to sign in again. */
  needsAttention: number;
}

export function accountTotals(accounts: readonly Account[]): AccountTotals {
  let tickets = 0;
  let distributed = 0;
  let needsAttention = 0;
  for (const account of accounts) {
    tickets += account.ticket_count;
    distributed += account.distributed_count;
    if (account.in_error_state) needsAttention++;
  }
  return { accounts: accounts.length, tickets, distributed, needsAttention };
}

/** A sync's progress, from the account.sync pushes. */
export interface SyncProgress {
  state: 'running' | 'done' | 'failed';
  /** Passes read from the wallet so far. */
  fetched: number;
}

/**
 * The progress bar of a running sync. The wallet does not say how many passes it holds, so the account's ticket
 * count is the expected total; a first sync (no tickets yet) shows a bar without a value.
 */
export function syncProgressBar(progress: SyncProgress | undefined, ticketCount: number) {
  const fetched = progress?.fetched ?? 0;
  const text = progress ? `Syncing... ${countOf(fetched, 'ticket')} read` : 'Syncing...';
  if (!(ticketCount > 0)) return { value: undefined, max: 100, text };
  return { value: fetched, max: Math.max(ticketCount, fetched), text };
}

// --- The add-accounts form (docs/reference.md "Form rules": email and password required) -----------------------------

export interface AccountEntry {
  email: string;
  password: string;
}

export interface AccountEntryErrors {
  email?: string;
  password?: string;
}

export const ACCOUNT_FORM_MESSAGES = {
  emailRequired: 'Email is required',
  emailInvalid: 'Please enter a valid email address',
  passwordRequired: 'Password is required',
  duplicate: 'This account is already in the list',
} as const;

/** At most this many rows: one batch call (POST /v1/accounts/batch takes 1 to 20). */
export const MAX_ACCOUNT_ROWS = MAX_BATCH_ACCOUNTS;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Checks the rows: each needs an e-mail (a plausible address, not twice in the list) and a password. Gives the request
 * entries (e-mail trimmed; the password as typed), or the errors per row.
 */
export function validateAccountEntries(
  entries: readonly AccountEntry[],
): { ok: true; accounts: LinkAccountRequest[] } | { ok: false; errors: AccountEntryErrors[] } {
  const seen = new Set<string>();
  let failed = false;
  const errors = entries.map((entry) => {
    const found: AccountEntryErrors = {};
    const email = entry.email.trim();
    if (!email) found.email = ACCOUNT_FORM_MESSAGES.emailRequired;
    else if (!EMAIL.test(email)) found.email = ACCOUNT_FORM_MESSAGES.emailInvalid;
    else if (seen.has(email.toLowerCase())) found.email = ACCOUNT_FORM_MESSAGES.duplicate;
    if (email) seen.add(email.toLowerCase());
    if (!entry.password) found.password = ACCOUNT_FORM_MESSAGES.passwordRequired;
    if (found.email || found.password) failed = true;
    return found;
  });
  if (failed) return { ok: false, errors };
  return { ok: true, accounts: entries.map((entry) => ({ email: entry.email.trim(), password: entry.password })) };
}
