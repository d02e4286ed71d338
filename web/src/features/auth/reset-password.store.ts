import { create } from 'zustand';
import { errorMessage } from '../../lib/api-client';
import { resetPassword } from './api/reset-password';
import { validateResetToken } from './api/validate-reset-token';

/**
 * The reset-password slice (SPEC.md §3). `tokenValid` is null until the check of the link's token has answered,
 * then true or false (§4).
 */
export interface ResetPasswordState {
  loading: boolean;
  error: string | null;
  tokenValid: boolean | null;
  success: boolean;
}

export interface ResetPasswordActions {
  /**
   * Checks the token of a reset link; starts the page afresh. A check of the same token that is still under way is
   * joined rather than sent again (React StrictMode runs effects twice).
   */
  validateToken(token: string): Promise<void>;
  /** POST /v1/auth/reset-password (no cookies). Resolves true on success; failure: the server's message or fallback. */
  resetPassword(token: string, password: string): Promise<boolean>;
  clear(): void;
  clearError(): void;
}

export type ResetPasswordStore = ResetPasswordState & ResetPasswordActions;

export const initialResetPasswordState: ResetPasswordState = {
  loading: false,
  error: null,
  tokenValid: null,
  success: false,
};

export function createResetPasswordStore() {
  let inFlight: { token: string; check: Promise<{ valid: boolean; message: string | null }> } | null = null;
  let latestToken: string | null = null;

  const check = (token: string) => {
    if (inFlight?.token === token) return inFlight.check;
    const pending = validateResetToken({ token }).then(
      () => ({ valid: true, message: null }),
      (error: unknown) => ({ valid: false, message: errorMessage(error, '') || null }),
    );
    const entry = { token, check: pending };
    inFlight = entry;
    void pending.then(() => {
      if (inFlight === entry) inFlight = null;
    });
    return pending;
  };

  return create<ResetPasswordStore>()((set, get) => ({
    ...initialResetPasswordState,

    async validateToken(token) {
      latestToken = token;
      set({ ...initialResetPasswordState });
      const { valid, message } = await check(token);
      if (latestToken !== token) return;
      set({ tokenValid: valid, error: valid ? null : message });
    },

    async resetPassword(token, password) {
      set({ loading: true, error: null, success: false });
      try {
        await resetPassword({ token, password });
        set({ loading: false, success: true });
        return true;
      } catch (error) {
        set({ loading: false, error: errorMessage(error, 'Failed to reset password') });
        return false;
      }
    },

    clear() {
      latestToken = null;
      set({ ...initialResetPasswordState });
    },

    clearError() {
      if (get().error !== null) set({ error: null });
    },
  }));
}

export const useResetPasswordStore = createResetPasswordStore();
