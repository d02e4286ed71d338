import { queryOptions, useQuery } from '@tanstack/react-query';
import { querySlice } from '../../lib/query-slice';
import { listAdminAccounts } from './api/list-admin-accounts';

/** The accounts part of the admin slice: every linked account (docs/reference.md "Wallet account"). */
export const ADMIN_ACCOUNTS_KEY = ['admin', 'accounts'] as const;

export const adminAccountsQuery = queryOptions({ queryKey: ADMIN_ACCOUNTS_KEY, queryFn: () => listAdminAccounts() });

/** Every account with its owner and tickets: data, loading, and 'Failed to fetch accounts' while there is none. */
export function useAdminAccounts() {
  const query = useQuery(adminAccountsQuery);
  return { ...querySlice(query, 'Failed to fetch accounts'), retry: query.refetch };
}
