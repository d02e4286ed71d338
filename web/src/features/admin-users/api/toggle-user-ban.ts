import { routes, type ToggleBanResponse } from '@seatlink/contracts';
import { callApi } from '../../../lib/api-client';

/** POST /v1/admin/users/{id}/toggle-ban: bans or unbans; answers with the updated user. */
export function toggleUserBan(userId: string): Promise<ToggleBanResponse> {
  return callApi(routes.adminToggleUserBan, { params: { id: userId } });
}
