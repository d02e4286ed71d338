import { routes, type AccountResponse, type LinkAccountRequest } from '@seatlink/contracts';
import { callApi } from '../../../lib/api-client';

/** POST /v1/accounts/{id}/reauth {email, password}: signs the account in again (it leaves its error state). */
export function reauthAccount(id: string, body: LinkAccountRequest): Promise<AccountResponse> {
  return callApi(routes.reauthAccount, { params: { id }, body });
}
