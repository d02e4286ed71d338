import { routes, type AdminAccountsResponse } from '@seatlink/contracts';
import { callApi } from '../../../lib/api-client';

/** GET /v1/admin/accounts: every account, with its owner's e-mail and its tickets. */
export function listAdminAccounts(): Promise<AdminAccountsResponse> {
  return callApi(routes.adminListAccounts);
}
