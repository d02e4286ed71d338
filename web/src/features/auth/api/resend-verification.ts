import { request } from '../../../lib/api-client';

/** POST /v1/auth/resend-verification {email}. */
export function resendVerification(email: string): Promise<{ message?: string }> {
  return request<{ message?: string }>('/v1/auth/resend-verification', { method: 'POST', body: { email } });
}
