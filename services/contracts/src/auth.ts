import { z } from 'zod';
import { clientToken, emailAddress, hasForbiddenCharacters, notAllowedMessage } from './text.js';
import { named, schema, timestampSchema } from './schema.js';

/** Body of POST /v1/auth (docs/reference.md "Request and answer bodies"). */
export const loginRequestSchema = schema(() =>
  z.object({
    email: emailAddress('Enter a valid email address'),
    // Not checked against the password rules (an old password may predate them): only bounded, and no control
    // characters, which no password of this product can contain.
    password: z
      .string({ error: 'Password is required' })
      .min(1, 'Password is required')
      .max(256, 'Password is too long')
      .refine((value) => !hasForbiddenCharacters(value), notAllowedMessage('Password')),
    token: clientToken,
  }),
);
export type LoginRequest = z.infer<typeof loginRequestSchema>;

/** Machine-readable login failure codes (docs/reference.md "Error codes"). */
export const loginErrorCodes = [
  'EMAIL_NOT_VERIFIED',
  'INVALID_CREDENTIALS',
  'ACCOUNT_BANNED',
  'CAPTCHA_FAILED',
  'RATE_LIMITED',
  'SIGN_IN_LINK_SENT',
  'UNKNOWN_ERROR',
] as const;
export type LoginErrorCode = (typeof loginErrorCodes)[number];

/** The user shape (docs/reference.md "User"), as GET /v1/me and POST /v1/auth return it. */
export const userSchema = schema(() =>
  named(
    'User',
    z.object({
      id: z.uuid(),
      email: z.string(),
      email_verified: z.boolean(),
      is_admin: z.boolean(),
      is_banned: z.boolean(),
      created_at: timestampSchema,
      last_logged_in_at: timestampSchema.nullable(),
      /** Credits available to spend. */
      balance: z.int(),
      /** Credits one distributed ticket costs this user (the default when the user has none of their own). */
      distribution_cost: z.int(),
      first_name: z.string(),
      last_name: z.string(),
    }),
  ),
);
export type User = z.infer<typeof userSchema>;

/** A sign-in's answer (POST /v1/auth, /v1/auth/mfa, /v1/auth/passkey, /v1/auth/sign-in-link): the user signed in. */
export const loginResponseSchema = schema(() => named('LoginResponse', z.object({ user: userSchema })));
export type LoginResponse = z.infer<typeof loginResponseSchema>;

/**
 * GET /v1/session, the status check at start (docs/reference.md "Session states"): who is signed in, always 200 — the
 * user, or null for a visitor, an ended or expired session and a banned account. (GET /v1/me answers a visitor 401: for
 * a call that needs the session.)
 */
export const sessionResponseSchema = schema(() => named('SessionResponse', z.object({ user: userSchema.nullable() })));
export type SessionResponse = z.infer<typeof sessionResponseSchema>;

/**
 * The sign-in answer (401, code SIGN_IN_LINK_SENT) once an account has had too many failed sign-ins from anywhere:
 * the same for a right password, a wrong one and an unknown address, so it tells an attacker nothing; only the right
 * password gets a one-time sign-in link e-mailed to the account.
 */
export const SIGN_IN_LINK_SENT = 'SIGN_IN_LINK_SENT';

/**
 * Credits a ticket costs when the user has no distribution_cost of their own
 * (docs/reference.md "Limits and constants").
 */
export const DEFAULT_DISTRIBUTION_COST = 5;
