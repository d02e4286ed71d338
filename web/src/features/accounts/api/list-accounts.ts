import { routes, type AccountsResponse } from '@seatlink/contracts';
import { callApi } from '../../../lib/api-client';

/** GET /v1/accounts: the signed-in user's linked wallet accounts. */
export function listAccounts(): Promise<AccountsResponse> {
  return callApi(routes.listAccounts);
}
