import { routes, type EmailRequest, type MessageResponse } from '@seatlink/contracts';
import { callApi } from '../../../lib/api-client';

/** POST /v1/forgot-password {email}: the same answer whether or not the account exists. */
export function forgotPassword(body: EmailRequest): Promise<MessageResponse> {
  return callApi(routes.forgotPassword, { body });
}
