import { create } from 'zustand';
import { ApiError, errorMessage } from '../../lib/api-client';
import { verifyEmail } from './api/verify-email';

export type VerifyEmailStatus = 'idle' | 'verifying' | 'success' | 'error';

/** E-mail verification (SPEC.md §4): verifying, then success or error. */
export interface VerifyEmailState {
  status: VerifyEmailStatus;
  /** The token this state belongs to. */
  token: string | null;
  /** The server's message on success. */
  message: string | null;
  error: string | null;
}

export interface VerifyEmailActions {
  /**
   * Verifies `token` once: asking again for the token already asked about does nothing (a verification link works
   * once, and React StrictMode runs effects twice).
   */
  verify(token: string): Promise<void>;
  /** No token in the link: an error without any call (SPEC.md §5). */
  missingToken(): void;
}

export type VerifyEmailStore = VerifyEmailState & VerifyEmailActions;

export const VERIFICATION_TOKEN_MISSING = 'Verification token is missing';

export const initialVerifyEmailState: VerifyEmailState = { status: 'idle', token: null, message: null, error: null };

/** The failure text: the body's `error` field (SPEC.md §7), else its `message`, else 'Email verification failed'. */
export function verificationError(error: unknown): string {
  if (error instanceof ApiError && typeof error.body === 'object' && error.body !== null) {
    const text = (error.body as { error?: unknown }).error;
    if (typeof text === 'string' && text) return text;
  }
  return errorMessage(error, 'Email verification failed');
}

export function createVerifyEmailStore() {
  return create<VerifyEmailStore>()((set, get) => ({
    ...initialVerifyEmailState,

    async verify(token) {
      if (get().token === token && get().status !== 'idle') return;
      set({ status: 'verifying', token, message: null, error: null });
      try {
        const { message } = await verifyEmail({ token });
        if (get().token === token) set({ status: 'success', message });
      } catch (error) {
        if (get().token === token) set({ status: 'error', error: verificationError(error) });
      }
    },

    missingToken() {
      set({ status: 'error', token: null, message: null, error: VERIFICATION_TOKEN_MISSING });
    },
  }));
}

export const useVerifyEmailStore = createVerifyEmailStore();
