import { routes, type UserStateAt } from '@seatlink/contracts';
import { callApi } from '../../../lib/api-client';

/** GET /v1/admin/users/{id}/history?at=ISO: the user's balance, accounts, tickets and links as they stood then. */
export function getUserHistory(userId: string, at: string): Promise<UserStateAt> {
  return callApi(routes.adminUserHistory, { params: { id: userId }, query: { at } });
}
