import type { MessageResponse } from '@seatlink/contracts';
import { request } from '../../../lib/api-client';

/** POST /v1/admin/users/{id}/reset-password: e-mails the user a password reset link. */
export function resetUserPassword(userId: string): Promise<MessageResponse> {
  return request<MessageResponse>(`/v1/admin/users/${encodeURIComponent(userId)}/reset-password`, { method: 'POST' });
}
