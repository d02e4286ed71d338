import {
  routes,
  type PasskeyStepUpRequest,
  type StepUpRequest,
  type TotpConfirmRequest,
  type TotpConfirmResponse,
  type TotpDisableRequest,
  type TotpEnrolmentResponse,
} from '@seatlink/contracts';
import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import { callApi } from '../../../lib/api-client';
import { signWithPasskey } from '../../../lib/webauthn';

/** POST /v1/me/mfa/totp: a new secret for the app (its otpauth:// URI is the QR code). */
export function enrolTotp(): Promise<TotpEnrolmentResponse> {
  return callApi(routes.enrolTotp);
}

/** POST /v1/me/mfa/totp/confirm {code}: the app's first code turns it on; answers the recovery codes, once. */
export function confirmTotp(body: TotpConfirmRequest): Promise<TotpConfirmResponse> {
  return callApi(routes.confirmTotp, { body });
}

/** POST /v1/me/mfa/totp/disable {code}: a fresh code (or a recovery code) turns the app off. */
export function disableTotp(body: TotpDisableRequest): Promise<{ message: string }> {
  return callApi(routes.disableTotp, { body });
}

/** POST /v1/me/step-up/passkey/options, then /v1/me/step-up/passkey {response}: confirms it with a passkey. */
export async function stepUpWithPasskey(): Promise<{ message: string }> {
  const options = await callApi<PublicKeyCredentialRequestOptionsJSON>(routes.stepUpPasskeyOptions);
  const response = await signWithPasskey(options);
  return callApi(routes.stepUpWithPasskey, { body: { response } satisfies PasskeyStepUpRequest });
}

/** POST /v1/me/step-up {code} or {password}: confirms it is the user before a call that needs it. */
export function stepUp(body: StepUpRequest): Promise<{ message: string }> {
  return callApi(routes.stepUp, { body });
}
