import { routes, type MessageResponse } from '@seatlink/contracts';
import { callApi } from '../../../lib/api-client';

/** POST /v1/logout: ends the session and clears the cookie. */
export function logout(): Promise<MessageResponse> {
  return callApi(routes.logout);
}
