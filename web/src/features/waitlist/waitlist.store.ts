import { create } from 'zustand';
import type { WaitlistRequest } from '@seatlink/contracts';
import { errorMessage } from '../../lib/api-client';
import { joinWaitlist } from './api/join-waitlist';

/** The waitlist slice (SPEC.md §3 "Registration and waitlist"): idle, loading, then success or error (§4). */
export interface WaitlistState {
  loading: boolean;
  error: string | null;
  success: boolean;
  message: string | null;
}

export interface WaitlistActions {
  /** POST /v1/waitlist. The previous error is cleared as it starts (SPEC.md §4). Resolves true on success. */
  join(payload: WaitlistRequest): Promise<boolean>;
  /** Back to idle. */
  clear(): void;
  clearError(): void;
}

export type WaitlistStore = WaitlistState & WaitlistActions;

export const initialWaitlistState: WaitlistState = { loading: false, error: null, success: false, message: null };

export function createWaitlistStore() {
  let generation = 0;

  return create<WaitlistStore>()((set, get) => ({
    ...initialWaitlistState,

    async join(payload) {
      const current = ++generation;
      set({ loading: true, error: null, success: false, message: null });
      try {
        const { message } = await joinWaitlist(payload);
        if (current === generation) set({ loading: false, success: true, message });
        return true;
      } catch (error) {
        if (current === generation) set({ loading: false, error: errorMessage(error, 'Something went wrong') });
        return false;
      }
    },

    clear() {
      generation++;
      set({ ...initialWaitlistState });
    },

    clearError() {
      if (get().error !== null) set({ error: null });
    },
  }));
}

export const useWaitlistStore = createWaitlistStore();
