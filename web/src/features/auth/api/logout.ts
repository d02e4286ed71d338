import { request } from '../../../lib/api-client';

/** POST /v1/logout: ends the session and clears the cookie. */
export function logout(): Promise<{ message: string }> {
  return request<{ message: string }>('/v1/logout', { method: 'POST' });
}
