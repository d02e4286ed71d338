import { routes, type AccountsResponse } from '@seatlink/contracts';
import { callApi } from '../../../lib/api-client';

/** GET /v1/accounts: for the account filter, which names each account by name and e-mail. */
export function listAccounts(): Promise<AccountsResponse> {
  return callApi(routes.listAccounts);
}
