import { z } from 'zod';
import { userSchema } from './auth.js';
import { isoDateText } from './dates.js';
import { clientToken, emailAddress, hasForbiddenCharacters, notAllowedMessage, plainText } from './text.js';
import { named, schema, timestampSchema } from './schema.js';

const email = schema(() => emailAddress('Please enter a valid email address'));
const name = (label: string) => plainText(label, 100);
const captchaToken = clientToken;
/** Single-use tokens from e-mailed links: 43 base64url characters (256 bits). */
const linkToken = schema(() =>
  z
    .string({ error: 'Token is required' })
    .trim()
    .min(1, 'Token is required')
    .max(256, 'Token is not valid')
    .regex(/^[A-Za-z0-9_-]+$/, 'Token is not valid'),
);

/** Characters counted as "special" in a password (docs/reference.md "Password rules": a fixed set). */
export const PASSWORD_SPECIALS = '!@#$%^&*()_+-=[]{};\':"\\|,.<>/?`~';
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MESSAGES = {
  tooShort: 'Password must be at least 8 characters long',
  classes: 'Password must contain uppercase, lowercase, numbers, and special characters',
  unmet: 'Please meet all password requirements',
  mismatch: 'Passwords do not match',
} as const;

export interface PasswordChecks {
  length: boolean;
  uppercase: boolean;
  lowercase: boolean;
  digit: boolean;
  special: boolean;
}

/**
 * Each password rule (docs/reference.md "Password rules"), for the server and for the live checklist in the browser.
 */
export function checkPassword(password: string): PasswordChecks {
  return {
    length: password.length >= PASSWORD_MIN_LENGTH,
    uppercase: /[A-Z]/.test(password),
    lowercase: /[a-z]/.test(password),
    digit: /[0-9]/.test(password),
    special: [...password].some((c) => PASSWORD_SPECIALS.includes(c)),
  };
}

export const passwordSchema = schema(() =>
  z
    .string({ error: 'Password is required' })
    .max(128, 'Password must be at most 128 characters long')
    .refine((value) => !hasForbiddenCharacters(value), notAllowedMessage('Password'))
    .superRefine((value, ctx) => {
      const checks = checkPassword(value);
      if (!checks.length) ctx.addIssue({ code: 'custom', message: PASSWORD_MESSAGES.tooShort });
      else if (!checks.uppercase || !checks.lowercase || !checks.digit || !checks.special) {
        ctx.addIssue({ code: 'custom', message: PASSWORD_MESSAGES.classes });
      }
    }),
);

/** POST /v1/auth/register */
export const registerRequestSchema = schema(() =>
  z.object({
    email,
    first_name: name('First name'),
    last_name: name('Last name'),
    password: passwordSchema,
    invite_code: z
      .string({ error: 'Invite code is required' })
      .trim()
      .min(1, 'Invite code is required')
      .max(64, 'Invite code is not valid')
      .regex(/^[A-Za-z0-9-]+$/, 'Invite code is not valid'),
    token: captchaToken,
  }),
);
export type RegisterRequest = z.infer<typeof registerRequestSchema>;

/** POST /v1/forgot-password and POST /v1/auth/resend-verification */
export const emailRequestSchema = schema(() => z.object({ email }));
export type EmailRequest = z.infer<typeof emailRequestSchema>;

/** POST /v1/auth/validate-reset-token, POST /v1/auth/verify-email and POST /v1/auth/sign-in-link */
export const tokenRequestSchema = schema(() => z.object({ token: linkToken }));
export type TokenRequest = z.infer<typeof tokenRequestSchema>;

/** POST /v1/auth/reset-password */
export const resetPasswordRequestSchema = schema(() => z.object({ token: linkToken, password: passwordSchema }));
export type ResetPasswordRequest = z.infer<typeof resetPasswordRequestSchema>;

/** POST /v1/waitlist */
export const waitlistRequestSchema = schema(() =>
  z.object({
    email,
    first_name: name('First name'),
    last_name: name('Last name'),
    token: captchaToken,
  }),
);
export type WaitlistRequest = z.infer<typeof waitlistRequestSchema>;

/**
 * A change was made but some read models do not show it yet (the answer is then 202 Accepted). The answer itself is
 * built from what the command decided, so it is true; a list read right after may not show it for a moment.
 */
export const maybePendingShape = schema(() => ({
  /** The change is made, but a list read right after may not show it for a moment (the answer is 202). */
  pending: z.boolean().optional(),
}));
export type MaybePending = { pending?: boolean | undefined };

/**
 * Answer of the calls that only report: register, forgot-password, resend, reset, waitlist, validate; signing out; an
 * admin's password reset and invite changes; turning the app off, a step-up, removing a passkey, revoking an API key.
 */
export const messageResponseSchema = schema(() =>
  named('MessageResponse', z.object({ message: z.string(), ...maybePendingShape })),
);
export type MessageResponse = z.infer<typeof messageResponseSchema>;

/** POST /v1/auth/verify-email failure body: the error is in field `error` (docs/reference.md "API calls"). */
export interface VerifyEmailError {
  error: string;
  message: string;
}

/** Answer texts of the identity calls. */
export const IDENTITY_MESSAGES = {
  registered: 'Registration successful. Please check your email to verify your account.',
  forgotPassword: 'If an account exists for that email, password reset instructions have been sent.',
  resetTokenValid: 'Reset token is valid',
  resetTokenInvalid: 'This password reset link is invalid or has expired.',
  passwordReset: 'Password reset successfully',
  verificationSent: 'If that account needs verification, a new verification email has been sent.',
  emailVerified: 'Email verified successfully. You can now sign in.',
  verificationInvalid: 'This verification link is invalid or has expired.',
  waitlistJoined: "You're on the list! We'll notify you when registrations open.",
  adminResetSent: 'Password reset email sent',
  signInLinkSent:
    "For your security, we need to check it's you. If your email and password are correct, we've emailed you a link to sign in. It works for 15 minutes.",
  signInLinkInvalid: 'This sign-in link is invalid or has expired.',
} as const;

// --- Invite codes (admin) -------------------------------------------------------------------------------

/** docs/reference.md "Invite code". */
export const inviteCodeSchema = schema(() =>
  named(
    'InviteCode',
    z.object({
      id: z.uuid(),
      code: z.string(),
      used: z.int().min(0),
      max_uses: z.int().min(1),
      enabled: z.boolean(),
      expires_at: timestampSchema,
      created_at: timestampSchema,
    }),
  ),
);
export type InviteCode = z.infer<typeof inviteCodeSchema>;

export const INVITE_MAX_USES = { min: 1, max: 1000, default: 100 } as const;

/**
 * POST /v1/admin/invites. `expires_at` must be at least tomorrow (docs/reference.md "Admin form rules"): on or after
 * the start of the next UTC day. The server checks that against its own clock.
 */
export const createInviteRequestSchema = schema(() =>
  z.object({
    max_uses: z
      .number({ error: 'max_uses must be a number' })
      .int('max_uses must be a whole number')
      .min(INVITE_MAX_USES.min, 'max_uses must be between 1 and 1000')
      .max(INVITE_MAX_USES.max, 'max_uses must be between 1 and 1000')
      .default(INVITE_MAX_USES.default),
    expires_at: isoDateText({ invalid: 'expires_at must be a date (YYYY-MM-DD)' }),
  }),
);
export type CreateInviteRequest = z.input<typeof createInviteRequestSchema>;

/** GET /v1/admin/invites: every code, newest first. */
export const inviteCodesResponseSchema = schema(() =>
  named('InviteCodesResponse', z.object({ invite_codes: z.array(inviteCodeSchema) })),
);
export type InviteCodesResponse = z.infer<typeof inviteCodesResponseSchema>;

/** POST /v1/admin/invites: the code as it was created. */
export const inviteCodeResponseSchema = schema(() =>
  named('InviteCodeResponse', z.object({ invite_code: inviteCodeSchema, ...maybePendingShape })),
);
export type InviteCodeResponse = z.infer<typeof inviteCodeResponseSchema>;

export const inviteIdParamSchema = schema(() => z.uuid({ error: 'Invite id must be a UUID' }));
export const inviteCodeParamSchema = schema(() =>
  z
    .string()
    .trim()
    .min(1)
    .max(64, 'Invite code is not valid')
    .regex(/^[A-Za-z0-9-]+$/, 'Invite code is not valid'),
);

/** POST /v1/admin/users/{id}/toggle-ban: the user as the ban (or unban) left them. */
export const toggleBanResponseSchema = schema(() =>
  named('ToggleBanResponse', z.object({ message: z.string(), user: userSchema, ...maybePendingShape })),
);
export type ToggleBanResponse = z.infer<typeof toggleBanResponseSchema>;

/** GET /v1/config: what the browser needs at run time. */
export const publicConfigSchema = schema(() =>
  named(
    'PublicConfig',
    z.object({
      /** reCAPTCHA v3 site key; null when the human check is off (then send token null). */
      captcha_site_key: z.string().nullable(),
    }),
  ),
);
export type PublicConfig = z.infer<typeof publicConfigSchema>;

export type CaptchaAction = 'login' | 'register' | 'interestRegistration';
