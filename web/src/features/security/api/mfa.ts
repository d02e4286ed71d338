import {
  routes,
  type MfaStatus,
  type StepUpRequest,
  type TotpConfirmRequest,
  type TotpConfirmResponse,
  type TotpDisableRequest,
  type TotpEnrolmentResponse,
} from '@seatlink/contracts';
import { callApi } from '../../../lib/api-client';

/** GET /v1/me/mfa: whether the authenticator app is on, and how many recovery codes are left. */
export function getMfaStatus(): Promise<MfaStatus> {
  return callApi(routes.mfaStatus);
}

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

/** POST /v1/me/step-up {code} or {password}: confirms it is the user before a call that needs it. */
export function stepUp(body: StepUpRequest): Promise<{ message: string }> {
  return callApi(routes.stepUp, { body });
}
