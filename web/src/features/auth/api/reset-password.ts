import { routes, type MessageResponse, type ResetPasswordRequest } from '@seatlink/contracts';
import { callApi } from '../../../lib/api-client';

/**
 * POST /v1/auth/reset-password {token, password}: the one call sent without cookies
 * (docs/reference.md "Roles and permissions").
 */
export function resetPassword(body: ResetPasswordRequest): Promise<MessageResponse> {
  return callApi(routes.resetPassword, { body, withCredentials: false });
}
