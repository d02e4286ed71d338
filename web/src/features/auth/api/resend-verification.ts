import type { EmailRequest, MessageResponse } from '@seatlink/contracts';
import { request } from '../../../lib/api-client';

/** POST /v1/auth/resend-verification {email}: the same answer whether or not the account exists. */
export function resendVerification(body: EmailRequest): Promise<MessageResponse> {
  return request<MessageResponse>('/v1/auth/resend-verification', { method: 'POST', body });
}
