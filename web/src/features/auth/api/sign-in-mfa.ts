import { routes, type LoginResponse, type MfaSignInRequest } from '@seatlink/contracts';
import { callApi } from '../../../lib/api-client';

/** POST /v1/auth/mfa {mfa_token, code}: finishes a sign-in that asked for the second factor; sets the cookie. */
export function signInMfa(body: MfaSignInRequest): Promise<LoginResponse> {
  return callApi(routes.signInMfa, { body });
}
