import type { EmailRequest, MessageResponse } from '@seatlink/contracts';
import { request } from '../../../lib/api-client';

/** POST /v1/forgot-password {email}: the same answer whether or not the account exists. */
export function forgotPassword(body: EmailRequest): Promise<MessageResponse> {
  return request<MessageResponse>('/v1/forgot-password', { method: 'POST', body });
}
