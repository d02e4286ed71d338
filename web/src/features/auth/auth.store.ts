import { create, type StoreApi, type UseBoundStore } from 'zustand';
import type { ErrorResponse, LoginRequest, LoginResponse, SecondFactorMethod } from '@seatlink/contracts';
import { ApiError, errorCode, errorMessage, withRetries } from '../../lib/api-client';
import { useSessionStore, type SessionStore } from '../../lib/session.store';
import { PasskeyNotUsed, signWithPasskey } from '../../lib/webauthn';
import { getMe } from './api/get-me';
import { getSession } from './api/get-session';
import { login as loginCall } from './api/login';
import { logout as logoutCall } from './api/logout';
import { signInMfa as signInMfaCall } from './api/sign-in-mfa';
import { passkeySignInOptions, signInPasskey } from './api/sign-in-passkey';
import { signInWithLink as signInWithLinkCall } from './api/sign-in-with-link';

/**
 * A failed auth call as the screens need it: the server's message (or a fallback) and its code
 * (docs/reference.md "Error answers").
 */
export type AuthError = Pick<ErrorResponse, 'message' | 'code'>;

/**
 * The auth slice (loading, error, success; docs/reference.md "Screen state") for the calls of this feature. Who is
 * signed in (isAuthenticated, user) is kept in the shared session slice (lib/session.store.ts), which these actions
 * write, so the frame, the guards and other features read it without reaching into this feature.
 */
export interface AuthState {
  loading: boolean;
  error: AuthError | null;
  success: boolean;
  /**
   * The password (or e-mailed link) was right and the account has a second factor: this sign-in goes on with a code
   * (`signInWithSecondFactor`) within its token's five minutes; null otherwise.
   */
  mfaToken: string | null;
  /** How the account can finish that sign-in (a code of the app, a passkey, a recovery code). */
  mfaMethods: SecondFactorMethod[];
}

export interface AuthActions {
  /** Login (docs/reference.md "Session states"). Resolves true when signed in; a failure is stored in `error`. */
  login(credentials: LoginRequest): Promise<boolean>;
  /** Signs in with an e-mailed one-time link's token, as login does (same flags, same session). */
  signInWithLink(token: string): Promise<boolean>;
  /** Finishes a sign-in waiting for its second factor with a code of the app or a recovery code. */
  signInWithSecondFactor(code: string): Promise<boolean>;
  /**
   * Signs in with a passkey: as the second factor of a sign-in waiting for one, or alone, without a password. A
   * passkey the person did not use (cancelled, none on this device) is an error with words for them.
   */
  signInWithPasskey(): Promise<boolean>;
  /** Gives up a sign-in waiting for its second factor (back to the password). */
  cancelSecondFactor(): void;
  /**
   * Status check at start (docs/reference.md "Session states"): GET /v1/session, which answers a visitor 200 with no
   * user (so the sign-in page logs no failed request); no user, or any failure, resets to the signed-out initial state.
   */
  checkStatus(): Promise<void>;
  /**
   * Re-reads the signed-in user without the loading flag (after a socket reconnect or a `session.ended` push):
   * a 401 (session gone) or 403 (account banned) resets to the signed-out state, other failures keep what is known.
   * With `retryDelaysMs`, a read that got no answer or a gateway's (lib/api-client.ts `withRetries`) is tried again
   * after each delay, until `signal` aborts.
   */
  refreshUser(options?: { retryDelaysMs?: readonly number[]; signal?: AbortSignal }): Promise<void>;
  /** Logout (docs/reference.md "Session states"). Resolves true when signed out; a failure is stored in `error`. */
  logout(): Promise<boolean>;
  clearError(): void;
}

export type AuthStore = AuthState & AuthActions;

/** The signed-out initial value. */
export const initialAuthState: AuthState = {
  loading: false,
  error: null,
  success: false,
  mfaToken: null,
  mfaMethods: [],
};

/** The sign-in answer that asks for the second factor (401), with the token that goes on with it. */
const MFA_REQUIRED = 'MFA_REQUIRED';
/** The second factor's token is used or expired: the sign-in starts again from the password. */
const MFA_TOKEN_INVALID = 'MFA_TOKEN_INVALID';

const METHODS: readonly SecondFactorMethod[] = ['totp', 'passkey', 'recovery_code'];

/** The second factor a sign-in asked for: its token, and the ways to finish it (an app's code when none is named). */
function secondFactorOf(error: unknown): Pick<AuthState, 'mfaToken' | 'mfaMethods'> | null {
  if (!(error instanceof ApiError) || error.code !== MFA_REQUIRED) return null;
  const body = error.body as { mfa_token?: unknown; methods?: unknown } | undefined;
  if (typeof body?.mfa_token !== 'string') return null;
  const named = Array.isArray(body.methods) ? METHODS.filter((m) => (body.methods as unknown[]).includes(m)) : [];
  return { mfaToken: body.mfa_token, mfaMethods: named.length ? named : ['totp', 'recovery_code'] };
}

function toAuthError(error: unknown, fallback: string): AuthError {
  const code = errorCode(error);
  return code ? { message: errorMessage(error, fallback), code } : { message: errorMessage(error, fallback) };
}

/** Builds an auth store over a session slice; the app uses the one below, tests make fresh ones. */
export function createAuthStore(session: UseBoundStore<StoreApi<SessionStore>> = useSessionStore) {
  return create<AuthStore>()((set, get) => {
    const signOut = () => {
      set({ ...initialAuthState });
      session.getState().signedOut();
    };

    /** A sign-in call (password or e-mailed link): its user is signed in, or its failure is stored in `error`. */
    const signIn = async (call: () => Promise<LoginResponse>): Promise<boolean> => {
      set({ loading: true, error: null, success: false });
      try {
        const { user } = await call();
        session.getState().signedIn(user);
        set({ loading: false, error: null, success: true, mfaToken: null, mfaMethods: [] });
        return true;
      } catch (error) {
        const secondFactor = secondFactorOf(error);
        if (secondFactor) {
          // Not a failure: the sign-in goes on with the second factor.
          set({ loading: false, success: false, error: null, ...secondFactor });
          return false;
        }
        if (error instanceof PasskeyNotUsed) {
          set({ loading: false, success: false, error: { message: error.message } });
          return false;
        }
        const restart = errorCode(error) === MFA_TOKEN_INVALID;
        set({
          loading: false,
          success: false,
          error: toAuthError(error, 'Login failed'),
          ...(restart ? { mfaToken: null, mfaMethods: [] } : {}),
        });
        return false;
      }
    };

    return {
      ...initialAuthState,

      login: (credentials) => signIn(() => loginCall(credentials)),

      signInWithLink: (token) => signIn(() => signInWithLinkCall({ token })),

      signInWithSecondFactor: (code) => {
        const mfaToken = get().mfaToken;
        if (!mfaToken) return Promise.resolve(false);
        return signIn(() => signInMfaCall({ mfa_token: mfaToken, code }));
      },

      signInWithPasskey: () => {
        const mfaToken = get().mfaToken ?? undefined;
        return signIn(async () => {
          const options = await passkeySignInOptions(mfaToken ? { mfa_token: mfaToken } : {});
          const response = await signWithPasskey(options);
          return signInPasskey(mfaToken ? { mfa_token: mfaToken, response } : { response });
        });
      },

      cancelSecondFactor() {
        set({ mfaToken: null, mfaMethods: [], error: null });
      },

      async checkStatus() {
        set({ loading: true });
        session.getState().checking();
        try {
          const { user } = await getSession();
          if (!user) {
            signOut();
            return;
          }
          session.getState().signedIn(user);
          set({ loading: false });
        } catch {
          signOut();
        }
      },

      async refreshUser({ retryDelaysMs = [], signal } = {}) {
        if (!session.getState().isAuthenticated) return;
        try {
          const user = await withRetries(() => getMe(), { delaysMs: retryDelaysMs, signal });
          if (session.getState().isAuthenticated && !signal?.aborted) session.getState().signedIn(user);
        } catch (error) {
          if (error instanceof ApiError && (error.status === 401 || error.status === 403)) signOut();
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
        signOut();
        return true;
      },

      clearError() {
        if (get().error !== null) set({ error: null });
      },
    };
  });
}

export const useAuthStore = createAuthStore();
