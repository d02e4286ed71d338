import { create, type StoreApi, type UseBoundStore } from 'zustand';
import type { User } from '@seatlink/contracts';
import { useCreditsStore, type CreditsStore } from './credits.store';

/** The signed-in user without the balance, which lives in the credits slice (lib/credits.store.ts). */
export type SessionUser = Omit<User, 'balance'>;

/**
 * The session slice: who is signed in. Written by the auth feature (login, status check, logout) and read by the
 * guards, the frame and any feature that needs the current user, so no feature reaches into another's store.
 */
export interface SessionState {
  /**
   * The status check at start is under way (docs/reference.md "Routing rules": a protected route shows nothing
   * meanwhile).
   */
  loading: boolean;
  isAuthenticated: boolean;
  user: SessionUser | null;
}

export interface SessionActions {
  checking(): void;
  /** Signed in as `user`; its balance goes to the credits slice. */
  signedIn(user: User): void;
  /** Back to the signed-out initial value (the credits slice too). */
  signedOut(): void;
  /** A newer copy of a user arrived (e.g. from an admin action): applied when it is the signed-in user. */
  userChanged(user: User): void;
}

export type SessionStore = SessionState & SessionActions;

export const initialSessionState: SessionState = { loading: false, isAuthenticated: false, user: null };

function withoutBalance(user: User): SessionUser {
  const { balance: _balance, ...rest } = user;
  return rest;
}

export function createSessionStore(credits: UseBoundStore<StoreApi<CreditsStore>> = useCreditsStore) {
  return create<SessionStore>()((set, get) => ({
    ...initialSessionState,

    checking() {
      set({ loading: true });
    },

    signedIn(user) {
      set({ loading: false, isAuthenticated: true, user: withoutBalance(user) });
      credits.getState().track(user.id, user.balance);
    },

    signedOut() {
      set({ ...initialSessionState });
      credits.getState().reset();
    },

    userChanged(user) {
      const current = get().user;
      if (!current || current.id !== user.id) return;
      set({ user: withoutBalance(user) });
      credits.getState().apply(user.id, user.balance);
    },
  }));
}

export const useSessionStore = createSessionStore();

/**
 * Calls `reset` whenever the signed-in user changes (sign-out, or someone else signs in), so a feature's data never
 * outlives the session it was read in. Answers the unsubscribe function.
 */
export function onSessionUserChange(
  reset: () => void,
  session: UseBoundStore<StoreApi<SessionStore>> = useSessionStore,
): () => void {
  return session.subscribe((state, previous) => {
    if ((state.user?.id ?? null) !== (previous.user?.id ?? null)) reset();
  });
}
