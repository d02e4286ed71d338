import type { MessageResponse, TokenRequest } from '@seatlink/contracts';
import { request } from '../../../lib/api-client';

/** POST /v1/auth/validate-reset-token {token} → 200 {message} when the link is usable, 400 {message} otherwise. */
export function validateResetToken(body: TokenRequest): Promise<MessageResponse> {
  return request<MessageResponse>('/v1/auth/validate-reset-token', { method: 'POST', body });
}
