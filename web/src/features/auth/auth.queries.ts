import { queryOptions } from '@tanstack/react-query';
import { ApiError, errorMessage } from '../../lib/api-client';
import { validateResetToken } from './api/validate-reset-token';
import { verifyEmail } from './api/verify-email';

/**
 * The checks the e-mailed links start as their page opens: one query per token, so the check is asked once however
 * often the page asks (React StrictMode runs effects twice; a verification link works once).
 */

export const VERIFICATION_TOKEN_MISSING = 'Verification token is missing';
export const RESET_PASSWORD_FAILED = 'Failed to reset password';

/** The failure text: the body's `error` field (SPEC.md §7), else its `message`, else 'Email verification failed'. */
export function verificationError(error: unknown): string {
  if (error instanceof ApiError && typeof error.body === 'object' && error.body !== null) {
    const text = (error.body as { error?: unknown }).error;
    if (typeof text === 'string' && text) return text;
  }
  return errorMessage(error, 'Email verification failed');
}

/** E-mail verification (SPEC.md §4): POST /v1/auth/verify-email, once per token for the page's life. */
export const verifyEmailQuery = (token: string) =>
  queryOptions({
    queryKey: ['auth', 'verify-email', token],
    queryFn: () => verifyEmail({ token }),
    staleTime: Infinity,
    gcTime: Infinity,
  });

/** Whether a reset link's token is usable (SPEC.md §4), with the server's message when it is not. */
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
