import { routes, type AccountResponse, type LinkAccountRequest } from '@seatlink/contracts';
import { callApi } from '../../../lib/api-client';

/** POST /v1/accounts {email, password}: links one wallet account (201, or 202 with pending while it shows). */
export function linkAccount(body: LinkAccountRequest): Promise<AccountResponse> {
  return callApi(routes.linkAccount, { body });
}
