import type { MessageResponse, RegisterRequest } from '@seatlink/contracts';
import { request } from '../../../lib/api-client';

/** POST /v1/auth/register {email, first_name, last_name, password, invite_code, token} → 201 {message}. */
export function register(body: RegisterRequest): Promise<MessageResponse> {
  return request<MessageResponse>('/v1/auth/register', { method: 'POST', body });
}
