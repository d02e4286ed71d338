import type { AdminAccount } from '@seatlink/contracts';

/** Accounts per page of /admin/accounts. */
export const ADMIN_ACCOUNTS_PAGE_SIZE = 20;

/** Accounts whose name, e-mail or owner's e-mail holds `search` (case and outer spaces ignored), in their order. */
export function searchAdminAccounts(accounts: readonly AdminAccount[], search: string): AdminAccount[] {
  const needle = search.trim().toLowerCase();
  if (!needle) return accounts.slice();
  return accounts.filter((account) =>
    `${account.name}\n${account.email}\n${account.user?.email ?? ''}`.toLowerCase().includes(needle),
  );
}

export interface AdminAccountTotals {
  accounts: number;
  owners: number;
  tickets: number;
  inError: number;
}

export function adminAccountTotals(accounts: readonly AdminAccount[]): AdminAccountTotals {
  const owners = new Set<string>();
  let tickets = 0;
  let inError = 0;
  for (const account of accounts) {
    owners.add(account.user_id);
    tickets += account.tickets?.length ?? account.ticket_count;
    if (account.in_error_state) inError++;
  }
  return { accounts: accounts.length, owners: owners.size, tickets, inError };
}
