import type { ToggleBanResponse } from '@seatlink/contracts';
import { request } from '../../../lib/api-client';

/** POST /v1/admin/users/{id}/toggle-ban: bans or unbans; answers with the updated user. */
export function toggleUserBan(userId: string): Promise<ToggleBanResponse> {
  return request<ToggleBanResponse>(`/v1/admin/users/${encodeURIComponent(userId)}/toggle-ban`, { method: 'POST' });
}
