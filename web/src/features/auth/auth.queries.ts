import { queryOptions } from '@tanstack/react-query';
import { ApiError, errorMessage } from '../../lib/api-client';
import { validateResetToken } from './api/validate-reset-token';
import { verifyEmail } from './api/verify-email';

/**
 * The checks the e-mailed links start as their page opens: the reset link's check is a query (asking it changes
 * nothing); the verification link works once, so its call is a mutation sent once per page visit.
 */

export const VERIFICATION_TOKEN_MISSING = 'Verification token is missing';
export const RESET_PASSWORD_FAILED = 'Failed to reset password';

/**
 * The failure text: the body's `error` field (docs/reference.md "API calls"), else its `message`, else
 * 'Email verification failed'.
 */
export function verificationError(error: unknown): string {
  if (error instanceof ApiError && typeof error.body === 'object' && error.body !== null) {
    const text = (error.body as { error?: unknown }).error;
    if (typeof text === 'string' && text) return text;
  }
  return errorMessage(error, 'Email verification failed');
}

/**
 * E-mail verification (docs/reference.md "One-call forms"): POST /v1/auth/verify-email. The token works once, so this
 * is a mutation, sent once per page visit (see `onceFor`) and never retried nor read again: a second call could only
 * answer 'invalid or expired'.
 */
export const verifyEmailMutation = {
  mutationKey: ['auth', 'verify-email'],
  mutationFn: (token: string) => verifyEmail({ token }),
  retry: false,
} as const;

/**
 * A guard that lets `key` through the first time it is asked and never again for that key (another key is let through
 * once in turn). A page keeps one for its life, so React StrictMode running its effects twice, or a re-render asking
 * again, does not send a single-use token a second time.
 */
export function onceFor<Key>(): (key: Key) => boolean {
  let sent: { key: Key } | null = null;
  return (key) => {
    if (sent && Object.is(sent.key, key)) return false;
    sent = { key };
    return true;
  };
}

/**
 * Whether a reset link's token is usable (docs/reference.md "One-call forms"), with the server's message when it is
 * not.
 */
export interface ResetTokenCheck {
  valid: boolean;
  message: string | null;
}

export const resetTokenQuery = (token: string) =>
  queryOptions({
    queryKey: ['auth', 'reset-token', token],
    queryFn: async (): Promise<ResetTokenCheck> => {
      try {
        await validateResetToken({ token });
        return { valid: true, message: null };
      } catch (error) {
        return { valid: false, message: errorMessage(error, '') || null };
      }
    },
  });
