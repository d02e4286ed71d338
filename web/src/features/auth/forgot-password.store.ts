import { create } from 'zustand';
import { errorMessage } from '../../lib/api-client';
import { forgotPassword } from './api/forgot-password';

/** The forgot-password slice (SPEC.md §3): idle, loading, then success or error (§4). */
export interface ForgotPasswordState {
  loading: boolean;
  error: string | null;
  success: boolean;
}

export interface ForgotPasswordActions {
  /** POST /v1/forgot-password. Resolves true on success; a failure is stored in `error` as returned. */
  sendResetInstructions(email: string): Promise<boolean>;
  /** Back to idle (the modal calls it when it closes). */
  clear(): void;
  clearError(): void;
}

export type ForgotPasswordStore = ForgotPasswordState & ForgotPasswordActions;

export const initialForgotPasswordState: ForgotPasswordState = { loading: false, error: null, success: false };

export function createForgotPasswordStore() {
  // A closed modal must not be filled in by the answer to a request it sent while open.
  let generation = 0;

  return create<ForgotPasswordStore>()((set, get) => ({
    ...initialForgotPasswordState,

    async sendResetInstructions(email) {
      const current = ++generation;
      set({ loading: true, error: null, success: false });
      try {
        await forgotPassword({ email });
        if (current === generation) set({ loading: false, success: true });
        return true;
      } catch (error) {
        if (current === generation) set({ loading: false, error: errorMessage(error, 'Something went wrong') });
        return false;
      }
    },

    clear() {
      generation++;
      set({ ...initialForgotPasswordState });
    },

    clearError() {
      if (get().error !== null) set({ error: null });
    },
  }));
}

export const useForgotPasswordStore = createForgotPasswordStore();
