import { create } from 'zustand';

/**
 * The credits slice: the signed-in user's balance. It is kept apart from the session (lib/session.store.ts) because it
 * changes on its own (live `balance.updated` pushes, an admin setting credits) and several features show it.
 */
export interface CreditsState {
  /** Whose balance this is; null when nobody is signed in. */
  userId: string | null;
  balance: number;
}

export interface CreditsActions {
  /** A new session: this user's balance. */
  track(userId: string | null, balance: number): void;
  /** A newer balance for `userId`; ignored unless it is the signed-in user's. */
  apply(userId: string, balance: number): void;
  reset(): void;
}

export type CreditsStore = CreditsState & CreditsActions;

export const initialCreditsState: CreditsState = { userId: null, balance: 0 };

export function createCreditsStore() {
  return create<CreditsStore>()((set, get) => ({
    ...initialCreditsState,

    track(userId, balance) {
      set({ userId, balance });
    },

    apply(userId, balance) {
      const state = get();
      if (state.userId === userId && state.balance !== balance) set({ balance });
    },

    reset() {
      set({ ...initialCreditsState });
    },
  }));
}

export const useCreditsStore = createCreditsStore();
