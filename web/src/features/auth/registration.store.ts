import { create } from 'zustand';
import type { RegisterRequest } from '@seatlink/contracts';
import { errorMessage } from '../../lib/api-client';
import { register } from './api/register';

/** The registration slice (SPEC.md §3): idle, loading, then success (with the server's message) or error (§4). */
export interface RegistrationState {
  loading: boolean;
  error: string | null;
  success: boolean;
  message: string | null;
}

export interface RegistrationActions {
  /** POST /v1/auth/register. Resolves true on success. Failure text: the server's message or 'Registration failed'. */
  register(payload: RegisterRequest): Promise<boolean>;
  /** Back to idle. */
  clear(): void;
  clearError(): void;
}

export type RegistrationStore = RegistrationState & RegistrationActions;

export const initialRegistrationState: RegistrationState = {
  loading: false,
  error: null,
  success: false,
  message: null,
};

export function createRegistrationStore() {
  let generation = 0;

  return create<RegistrationStore>()((set, get) => ({
    ...initialRegistrationState,

    async register(payload) {
      const current = ++generation;
      set({ loading: true, error: null, success: false, message: null });
      try {
        const { message } = await register(payload);
        if (current === generation) set({ loading: false, success: true, message });
        return true;
      } catch (error) {
        if (current === generation) set({ loading: false, error: errorMessage(error, 'Registration failed') });
        return false;
      }
    },

    clear() {
      generation++;
      set({ ...initialRegistrationState });
    },

    clearError() {
      if (get().error !== null) set({ error: null });
    },
  }));
}

export const useRegistrationStore = createRegistrationStore();
