import { create } from 'zustand';
import type { ErrorResponse, LoginRequest, User } from '@seatlink/contracts';
import { ApiError, errorCode, errorMessage } from '../../lib/api-client';
import { getMe } from './api/get-me';
import { login as loginCall } from './api/login';
import { logout as logoutCall } from './api/logout';

/** A failed auth call as the screens need it: the server's message (or a fallback) and its code (SPEC.md §8). */
export type AuthError = Pick<ErrorResponse, 'message' | 'code'>;

/** The auth slice of SPEC.md §3. */
export interface AuthState {
  loading: boolean;
  error: AuthError | null;
  success: boolean;
  isAuthenticated: boolean;
  user: User | null;
}

export interface AuthActions {
  /** Login (SPEC.md §4). Resolves true when signed in; a failure is stored in `error`. */
  login(credentials: LoginRequest): Promise<boolean>;
  /** Status check at start (SPEC.md §4): GET /v1/me; any failure resets to the signed-out initial state. */
  checkStatus(): Promise<void>;
  /**
   * Re-reads the signed-in user without the loading flag (after a socket reconnect or a `session.ended` push):
   * a 401 (session gone) or 403 (account banned) resets to the signed-out state, other failures keep what is known.
   */
  refreshUser(): Promise<void>;
  /** Logout (SPEC.md §4). Resolves true when signed out; a failure is stored in `error`. */
  logout(): Promise<boolean>;
  clearError(): void;
  /** A live `balance.updated` push: applies only to the signed-in user. */
  setBalance(userId: string, balance: number): void;
  /** Replaces the signed-in user's data when a newer copy of the same user arrives. */
  updateUser(user: User): void;
}

export type AuthStore = AuthState & AuthActions;

/** The signed-out initial value. */
export const initialAuthState: AuthState = {
  loading: false,
  error: null,
  success: false,
  isAuthenticated: false,
  user: null,
};

function toAuthError(error: unknown, fallback: string): AuthError {
  const code = errorCode(error);
  return code ? { message: errorMessage(error, fallback), code } : { message: errorMessage(error, fallback) };
}

/** Builds an auth store; the app uses the one below, tests make a fresh one each. */
export function createAuthStore() {
  return create<AuthStore>()((set, get) => ({
    ...initialAuthState,

    async login(credentials) {
      set({ loading: true, error: null, success: false });
      try {
        const { user } = await loginCall(credentials);
        set({ loading: false, error: null, success: true, isAuthenticated: true, user });
        return true;
      } catch (error) {
        set({ loading: false, success: false, error: toAuthError(error, 'Login failed') });
        return false;
      }
    },

    async checkStatus() {
      set({ loading: true });
      try {
        const user = await getMe();
        set({ loading: false, isAuthenticated: true, user });
      } catch {
        set({ ...initialAuthState });
      }
    },

    async refreshUser() {
      if (!get().isAuthenticated) return;
      try {
        const user = await getMe();
        if (get().isAuthenticated) set({ user });
      } catch (error) {
        if (error instanceof ApiError && (error.status === 401 || error.status === 403)) set({ ...initialAuthState });
      }
    },

    async logout() {
      try {
        await logoutCall();
      } catch (error) {
        // A 401 means the session is already gone: the visitor is signed out either way.
        if (!(error instanceof ApiError && error.status === 401)) {
          set({ error: toAuthError(error, 'Logout failed') });
          return false;
        }
      }
      set({ ...initialAuthState });
      return true;
    },

    clearError() {
      if (get().error !== null) set({ error: null });
    },

    setBalance(userId, balance) {
      const { user } = get();
      if (user && user.id === userId && user.balance !== balance) set({ user: { ...user, balance } });
    },

    updateUser(next) {
      const { user } = get();
      if (user && user.id === next.id) set({ user: next });
    },
  }));
}

export const useAuthStore = createAuthStore();
