import { queryOptions } from '@tanstack/react-query';
import { routes, type AccountsResponse } from '@seatlink/contracts';
import { callApi } from './api-client';

/**
 * The signed-in user's linked wallet accounts (GET /v1/accounts): the accounts page lists them, the tickets overview
 * names them in its account filter. One query for both, read again when an account or its tickets change.
 */
export const ACCOUNT_LIST_KEY = ['accounts', 'list'] as const;

export const accountListQuery = queryOptions({
  queryKey: ACCOUNT_LIST_KEY,
  queryFn: ({ signal }) => callApi<AccountsResponse>(routes.listAccounts, { signal }),
});
