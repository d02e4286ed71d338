import { request } from '../../../lib/api-client';

/** POST /v1/forgot-password {email}. */
export function forgotPassword(email: string): Promise<{ message?: string }> {
  return request<{ message?: string }>('/v1/forgot-password', { method: 'POST', body: { email } });
}
