import type { LoginErrorCode } from '@seatlink/contracts';

/**
 * The email-not-verified notice hides this long after a successful resend (docs/reference.md "Limits and constants").
 */
export const VERIFICATION_NOTICE_HIDE_MS = 5_000;

/** Login error code that offers to resend the verification email (docs/reference.md "Error codes"). */
export const EMAIL_NOT_VERIFIED = 'EMAIL_NOT_VERIFIED' satisfies LoginErrorCode;

/**
 * Login answer once an account has had too many failed sign-ins: not a failure to show in red, but a notice that a
 * one-time sign-in link was e-mailed (when the password was right). Written here, checked against the contracts' codes:
 * a value imported from the contracts' auth module would bring its zod schemas, and zod, into the sign-in page's bundle.
 */
export const SIGN_IN_LINK_SENT = 'SIGN_IN_LINK_SENT' satisfies LoginErrorCode;

/**
 * Redirect delays (docs/reference.md "Limits and constants"): to /login 5 s after registering and 2 s after verifying;
 * to / 2 s after a reset.
 */
export const REGISTRATION_REDIRECT_MS = 5_000;
export const VERIFICATION_REDIRECT_MS = 2_000;
export const RESET_REDIRECT_MS = 2_000;

/** The fallbacks of the one-call forms (docs/reference.md "Fallback texts"): forgot password, registration. */
export const FORGOT_PASSWORD_FAILED = 'Something went wrong';
export const REGISTRATION_FAILED = 'Registration failed';
