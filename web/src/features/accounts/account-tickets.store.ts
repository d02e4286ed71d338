import type { AccountTicketsResponse } from '@seatlink/contracts';
import { createResourceStore } from '../../lib/resource-store';
import { getAccountTickets } from './api/get-account-tickets';

/** The account detail of /dashboard/accounts/{accountId}: the account and its tickets (SPEC.md §3 "Account detail"). */
export const useAccountTicketsStore = createResourceStore<AccountTicketsResponse, string>(
  getAccountTickets,
  'Failed to fetch account tickets',
);
