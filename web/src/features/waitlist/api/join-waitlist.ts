import { routes, type MessageResponse, type WaitlistRequest } from '@seatlink/contracts';
import { callApi } from '../../../lib/api-client';

/** POST /v1/waitlist {email, first_name, last_name, token} → {message}. */
export function joinWaitlist(body: WaitlistRequest): Promise<MessageResponse> {
  return callApi(routes.joinWaitlist, { body });
}
