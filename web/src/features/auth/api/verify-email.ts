import { routes, type MessageResponse, type TokenRequest } from '@seatlink/contracts';
import { callApi } from '../../../lib/api-client';

/**
 * POST /v1/auth/verify-email {token} → {message}; a failure carries its text in field `error`
 * (docs/reference.md "API calls").
 */
export function verifyEmail(body: TokenRequest): Promise<MessageResponse> {
  return callApi(routes.verifyEmail, { body });
}
