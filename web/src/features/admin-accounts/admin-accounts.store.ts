import type { AdminAccountsResponse } from '@seatlink/contracts';
import { createResourceStore } from '../../lib/resource-store';
import { listAdminAccounts } from './api/list-admin-accounts';

/** The accounts part of the admin slice: every linked account (SPEC.md §3 "Admin view adds user and tickets"). */
export const useAdminAccountsStore = createResourceStore<AdminAccountsResponse>(
  listAdminAccounts,
  'Failed to fetch accounts',
);
