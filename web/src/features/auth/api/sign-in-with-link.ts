import { routes, type LoginResponse, type TokenRequest } from '@seatlink/contracts';
import { callApi } from '../../../lib/api-client';

/** POST /v1/auth/sign-in-link {token}: signs in with the one-time link e-mailed for a second proof; sets the cookie. */
export function signInWithLink(body: TokenRequest): Promise<LoginResponse> {
  return callApi(routes.signInWithLink, { body });
}
