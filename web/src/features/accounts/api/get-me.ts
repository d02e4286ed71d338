import { routes, type User } from '@seatlink/contracts';
import { callApi } from '../../../lib/api-client';

/** GET /v1/me: the signed-in user, re-read after a distribution (docs/reference.md "Ticket and link transitions"). */
export function getMe(): Promise<User> {
  return callApi(routes.me);
}
