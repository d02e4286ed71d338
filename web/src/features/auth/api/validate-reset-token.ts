import { routes, type MessageResponse, type TokenRequest } from '@seatlink/contracts';
import { callApi } from '../../../lib/api-client';

/** POST /v1/auth/validate-reset-token {token} → 200 {message} when the link is usable, 400 {message} otherwise. */
export function validateResetToken(body: TokenRequest): Promise<MessageResponse> {
  return callApi(routes.validateResetToken, { body });
}
