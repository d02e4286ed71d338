import { routes, type MessageResponse } from '@seatlink/contracts';
import { callApi } from '../../../lib/api-client';

/** POST /v1/admin/users/{id}/reset-password: e-mails the user a password reset link. */
export function resetUserPassword(userId: string): Promise<MessageResponse> {
  return callApi(routes.adminResetUserPassword, { params: { id: userId } });
}
