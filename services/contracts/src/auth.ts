import { z } from 'zod';
import { clientToken, emailAddress, hasForbiddenCharacters, notAllowedMessage } from './text.js';
import { schema } from './schema.js';

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
export interface User {
  id: string;
  email: string;
  email_verified: boolean;
  is_admin: boolean;
  is_banned: boolean;
  created_at: string;
  last_logged_in_at: string | null;
  /** Credits available to spend. */
  balance: number;
  /** Credits one distributed ticket costs this user (the default when the user has none of their own). */
  distribution_cost: number;
  first_name: string;
  last_name: string;
}

export interface LoginResponse {
  user: User;
}

/**
 * GET /v1/session, the status check at start (docs/reference.md "Session states"): who is signed in, always 200 — the
 * user, or null for a visitor, an ended or expired session and a banned account. (GET /v1/me answers a visitor 401: for
 * a call that needs the session.)
 */
export interface SessionResponse {
  user: User | null;
}

/**
 * The sign-in answer (401, code SIGN_IN_LINK_SENT) once an account has had too many failed sign-ins from anywhere:
 * the same for a right password, a wrong one and an unknown address, so it tells an attacker nothing; only the right
 * password gets a one-time sign-in link e-mailed to the account.
 */
export const SIGN_IN_LINK_SENT = 'SIGN_IN_LINK_SENT';

export interface ErrorResponse {
  message: string;
  code?: string;
  statusCode?: number;
}

/**
 * Credits a ticket costs when the user has no distribution_cost of their own
 * (docs/reference.md "Limits and constants").
 */
export const DEFAULT_DISTRIBUTION_COST = 5;
