import { pages, type MfaStatus } from '@seatlink/contracts';

/** Settings' authenticator setup: the two-factor section of the Settings page. */
export const TWO_FACTOR_SETUP = `${pages.settings}#two-factor`;

/**
 * Whether the admin pages wait for this user to set up a second factor: their role needs one (an admin, where the
 * server requires it) and they have none — an authenticator app or a passkey counts, as on the server.
 */
export function mustEnrolForAdmin(status: MfaStatus | undefined): boolean {
  return !!status?.required && !status.totp && status.passkeys === 0;
}
