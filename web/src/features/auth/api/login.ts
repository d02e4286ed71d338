import { routes, type LoginRequest, type LoginResponse } from '@seatlink/contracts';
import { callApi } from '../../../lib/api-client';

/** POST /v1/auth: signs in and sets the session cookie. */
export function login(credentials: LoginRequest): Promise<LoginResponse> {
  return callApi(routes.login, { body: credentials });
}
