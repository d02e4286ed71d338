import { routes, type LoginResponse, type PasskeyOptionsRequest, type PasskeySignInRequest } from '@seatlink/contracts';
import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import { callApi } from '../../../lib/api-client';

/** POST /v1/auth/passkey/options {mfa_token?}: the challenge a passkey signs (for that sign-in's user, or anyone's). */
export function passkeySignInOptions(body: PasskeyOptionsRequest): Promise<PublicKeyCredentialRequestOptionsJSON> {
  return callApi(routes.passkeySignInOptions, { body });
}

/** POST /v1/auth/passkey {response, mfa_token?}: signs in with the passkey's answer; sets the cookie. */
export function signInPasskey(body: PasskeySignInRequest): Promise<LoginResponse> {
  return callApi(routes.signInWithPasskey, { body });
}
