import type { MessageResponse, WaitlistRequest } from '@seatlink/contracts';
import { request } from '../../../lib/api-client';

/** POST /v1/waitlist {email, first_name, last_name, token} → {message}. */
export function joinWaitlist(body: WaitlistRequest): Promise<MessageResponse> {
  return request<MessageResponse>('/v1/waitlist', { method: 'POST', body });
}
