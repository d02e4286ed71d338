import { routes, type EmailRequest, type MessageResponse } from '@seatlink/contracts';
import { callApi } from '../../../lib/api-client';

/** POST /v1/auth/resend-verification {email}: the same answer whether or not the account exists. */
export function resendVerification(body: EmailRequest): Promise<MessageResponse> {
  return callApi(routes.resendVerification, { body });
}
