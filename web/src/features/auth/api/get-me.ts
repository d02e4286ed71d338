import { routes, type User } from '@seatlink/contracts';
import { callApi } from '../../../lib/api-client';

/** GET /v1/me: the signed-in user itself (not wrapped), 401 for a visitor. */
export function getMe(): Promise<User> {
  return callApi(routes.me);
}
