import { routes, type MessageResponse, type RegisterRequest } from '@seatlink/contracts';
import { callApi } from '../../../lib/api-client';

/** POST /v1/auth/register {email, first_name, last_name, password, invite_code, token} → 201 {message}. */
export function register(body: RegisterRequest): Promise<MessageResponse> {
  return callApi(routes.register, { body });
}
