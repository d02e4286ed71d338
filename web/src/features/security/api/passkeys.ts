import { routes, type AddPasskeyRequest, type PasskeyAddedResponse, type PasskeysResponse } from '@seatlink/contracts';
import type { PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/browser';
import { callApi } from '../../../lib/api-client';

/** GET /v1/me/passkeys. */
export function listPasskeys(): Promise<PasskeysResponse> {
  return callApi(routes.listPasskeys);
}

/** POST /v1/me/passkeys/options: what the browser needs to make a passkey for this user (a fresh proof first). */
export function passkeyRegistrationOptions(): Promise<PublicKeyCredentialCreationOptionsJSON> {
  return callApi(routes.passkeyRegistrationOptions);
}

/** POST /v1/me/passkeys {name, response}: records the passkey made; the first comes with recovery codes. */
export function addPasskey(body: AddPasskeyRequest): Promise<PasskeyAddedResponse> {
  return callApi(routes.addPasskey, { body });
}

/** DELETE /v1/me/passkeys/{id}. */
export function removePasskey(id: string): Promise<{ message: string }> {
  return callApi(routes.removePasskey, { params: { id } });
}
