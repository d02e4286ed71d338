import type { LoginRequest, LoginResponse } from '@seatlink/contracts';
import { request } from '../../../lib/api-client';

/** POST /v1/auth: signs in and sets the session cookie. */
export function login(credentials: LoginRequest): Promise<LoginResponse> {
  return request<LoginResponse>('/v1/auth', { method: 'POST', body: credentials });
}
