import { routes, type MfaStatus } from '@seatlink/contracts';
import { callApi } from '../../../lib/api-client';

/**
 * GET /v1/me/mfa: whether the authenticator app is on, the passkeys and recovery codes left, and whether the user's
 * role needs a second factor. A file of its own: the dashboard reads it for an admin (the admin pages' notice) without
 * bringing the passkey calls along.
 */
export function getMfaStatus(): Promise<MfaStatus> {
  return callApi(routes.mfaStatus);
}
