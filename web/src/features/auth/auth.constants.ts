/** The email-not-verified notice hides this long after a successful resend (SPEC.md §9). */
export const VERIFICATION_NOTICE_HIDE_MS = 5_000;

/** Login error code that offers to resend the verification email (SPEC.md §8). */
export const EMAIL_NOT_VERIFIED = 'EMAIL_NOT_VERIFIED';
