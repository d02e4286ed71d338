import type { MessageResponse, ResetPasswordRequest } from '@seatlink/contracts';
import { request } from '../../../lib/api-client';

/** POST /v1/auth/reset-password {token, password}: the one call sent without cookies (SPEC.md §6). */
export function resetPassword(body: ResetPasswordRequest): Promise<MessageResponse> {
  return request<MessageResponse>('/v1/auth/reset-password', { method: 'POST', body, withCredentials: false });
}
