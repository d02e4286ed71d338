import type { MessageResponse, TokenRequest } from '@seatlink/contracts';
import { request } from '../../../lib/api-client';

/** POST /v1/auth/verify-email {token} → {message}; a failure carries its text in field `error` (SPEC.md §7). */
export function verifyEmail(body: TokenRequest): Promise<MessageResponse> {
  return request<MessageResponse>('/v1/auth/verify-email', { method: 'POST', body });
}
