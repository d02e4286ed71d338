import { afterEach, describe, expect, it, vi } from 'vitest';
import type { User } from '@seatlink/contracts';
import { createCreditsStore } from '../../lib/credits.store';
import { createSessionStore } from '../../lib/session.store';
import { aUser } from '../../testing/fixtures';
import { stubFetch } from '../../testing/fetch-stub';
import { createAuthStore, initialAuthState } from './auth.store';

const credentials = { email: 'user@seatlink.test', password: 'User1234!', token: null };

/** The auth slice over fresh session and credits slices. */
function setup() {
  const credits = createCreditsStore();
  const session = createSessionStore(credits);
  const store = createAuthStore(session);
  /** Signs `user` in without a call. */
  const signIn = (user: User) => session.getState().signedIn(user);
  /**
   * The auth slice (docs/reference.md "Screen state") as the screens see it: this feature's flags plus the session's
   * user with its balance.
   */
  const stateOf = () => {
    const { loading, error, success } = store.getState();
    const { isAuthenticated, user } = session.getState();
    return {
      loading,
      error,
      success,
      isAuthenticated,
      user: user ? { ...user, balance: credits.getState().balance } : null,
    };
  };
  return { store, session, credits, signIn, stateOf };
}

// The flags stateOf reads (the second factor's token is checked on its own, below).
const { mfaToken: _noToken, mfaMethods: _noMethods, ...initialFlags } = initialAuthState;
const signedOut = { ...initialFlags, isAuthenticated: false, user: null };

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('auth store: login', () => {
  it('posts the credentials with cookies and stores the user of the response', async () => {
    const user = aUser();
    const calls = stubFetch({ status: 200, body: { user } });
    const { store, stateOf } = setup();

    await expect(store.getState().login(credentials)).resolves.toBe(true);

    expect(calls).toEqual([{ url: '/v1/auth', method: 'POST', body: credentials, credentials: 'include' }]);
    expect(stateOf()).toEqual({ loading: false, error: null, success: true, isAuthenticated: true, user });
  });

  it('clears the previous error while pending', async () => {
    stubFetch({ status: 200, body: { user: aUser() } });
    const { store } = setup();
    store.setState({ error: { message: 'Old' } });

    const pending = store.getState().login(credentials);
    expect(store.getState()).toMatchObject({ error: null, loading: true });
    await pending;
  });

  it('stores the server message and code on failure', async () => {
    stubFetch({ status: 403, body: { message: 'Please verify your email', code: 'EMAIL_NOT_VERIFIED' } });
    const { store, stateOf } = setup();

    await expect(store.getState().login(credentials)).resolves.toBe(false);

    expect(stateOf()).toEqual({
      ...signedOut,
      error: { message: 'Please verify your email', code: 'EMAIL_NOT_VERIFIED' },
    });
  });

  it("falls back to 'Login failed' when the server sends no message", async () => {
    stubFetch({ status: 500 });
    const { store } = setup();
    await store.getState().login(credentials);
    expect(store.getState().error).toEqual({ message: 'Login failed' });
  });

  it('gives code UNKNOWN_ERROR for a network failure', async () => {
    stubFetch(new TypeError('Failed to fetch'));
    const { store } = setup();
    await store.getState().login(credentials);
    expect(store.getState().error).toEqual({ message: 'Login failed', code: 'UNKNOWN_ERROR' });
  });
});

describe('auth store: sign-in with an e-mailed link', () => {
  it('keeps the notice that a link was e-mailed (code SIGN_IN_LINK_SENT), signed out', async () => {
    const message = "For your security, we need to check it's you.";
    stubFetch({ status: 401, body: { message, code: 'SIGN_IN_LINK_SENT' } });
    const { store, stateOf } = setup();
    await expect(store.getState().login(credentials)).resolves.toBe(false);
    expect(stateOf()).toEqual({ ...signedOut, error: { message, code: 'SIGN_IN_LINK_SENT' } });
  });

  it("posts the link's token with cookies and signs in as login does", async () => {
    const user = aUser();
    const calls = stubFetch({ status: 200, body: { user } });
    const { store, stateOf } = setup();

    await expect(store.getState().signInWithLink('tok_123')).resolves.toBe(true);

    expect(calls).toEqual([
      { url: '/v1/auth/sign-in-link', method: 'POST', body: { token: 'tok_123' }, credentials: 'include' },
    ]);
    expect(stateOf()).toEqual({ loading: false, error: null, success: true, isAuthenticated: true, user });
  });

  it('stores the message of a used or expired link, signed out', async () => {
    stubFetch({
      status: 400,
      body: { message: 'This sign-in link is invalid or has expired.', code: 'SIGN_IN_LINK_INVALID' },
    });
    const { store, stateOf } = setup();
    await expect(store.getState().signInWithLink('used')).resolves.toBe(false);
    expect(stateOf()).toEqual({
      ...signedOut,
      error: { message: 'This sign-in link is invalid or has expired.', code: 'SIGN_IN_LINK_INVALID' },
    });
  });
});

describe('auth store: status check', () => {
  it('takes the user of GET /v1/session', async () => {
    const user = aUser({ is_admin: true });
    const calls = stubFetch({ status: 200, body: { user } });
    const { store, session, stateOf } = setup();

    const pending = store.getState().checkStatus();
    expect(store.getState().loading).toBe(true);
    expect(session.getState().loading).toBe(true);
    await pending;

    expect(calls[0]).toMatchObject({ url: '/v1/session', method: 'GET', credentials: 'include' });
    expect(stateOf()).toMatchObject({ loading: false, isAuthenticated: true, user });
    expect(session.getState().loading).toBe(false);
  });

  it('resets to the signed-out initial state when nobody is signed in', async () => {
    stubFetch({ status: 200, body: { user: null } });
    const { store, signIn, stateOf, credits } = setup();
    signIn(aUser());
    store.setState({ error: { message: 'x' }, success: true });

    await store.getState().checkStatus();

    expect(stateOf()).toEqual(signedOut);
    expect(store.getState().loading).toBe(false);
    expect(credits.getState()).toMatchObject({ userId: null, balance: 0 });
  });

  it('resets to the signed-out initial state on failure', async () => {
    stubFetch({ status: 503, body: { message: 'Unavailable' } });
    const { store, signIn, stateOf, credits } = setup();
    signIn(aUser());
    store.setState({ error: { message: 'x' }, success: true });

    await store.getState().checkStatus();

    expect(stateOf()).toEqual(signedOut);
    expect(credits.getState()).toMatchObject({ userId: null, balance: 0 });
  });
});

describe('auth store: logout', () => {
  it('resets everything on success', async () => {
    const calls = stubFetch({ status: 200, body: { message: 'Logged out' } });
    const { store, signIn, stateOf } = setup();
    signIn(aUser());
    store.setState({ success: true });

    await expect(store.getState().logout()).resolves.toBe(true);

    expect(calls[0]).toMatchObject({ url: '/v1/logout', method: 'POST', credentials: 'include' });
    expect(stateOf()).toEqual(signedOut);
  });

  it("keeps the session and stores the error on failure (fallback 'Logout failed')", async () => {
    stubFetch({ status: 500 }, { status: 503, body: { message: 'Try later' } });
    const { store, signIn, stateOf } = setup();
    const user = aUser();
    signIn(user);

    await expect(store.getState().logout()).resolves.toBe(false);
    expect(stateOf()).toMatchObject({ isAuthenticated: true, user, error: { message: 'Logout failed' } });

    await store.getState().logout();
    expect(store.getState().error).toEqual({ message: 'Try later' });
  });

  it('treats a 401 (session already gone) as signed out', async () => {
    stubFetch({ status: 401, body: { message: 'Unauthorized' } });
    const { store, signIn, stateOf } = setup();
    signIn(aUser());

    await expect(store.getState().logout()).resolves.toBe(true);
    expect(stateOf()).toEqual(signedOut);
  });
});

describe('auth store: refreshing the user', () => {
  it('takes the newer user, balance included', async () => {
    const user = aUser({ balance: 10 });
    stubFetch({ status: 200, body: { ...user, first_name: 'Una', balance: 70 } });
    const { store, signIn, stateOf } = setup();
    signIn(user);

    await store.getState().refreshUser();

    expect(stateOf().user).toMatchObject({ first_name: 'Una', balance: 70 });
  });

  it('refreshUser signs out when the session has ended', async () => {
    stubFetch({ status: 401, body: { message: 'Unauthorized' } });
    const { store, signIn, stateOf } = setup();
    signIn(aUser());

    await store.getState().refreshUser();

    expect(stateOf()).toEqual(signedOut);
  });

  it('refreshUser signs out a banned user (403)', async () => {
    stubFetch({ status: 403, body: { message: 'Your account has been banned' } });
    const { store, signIn, stateOf } = setup();
    signIn(aUser());

    await store.getState().refreshUser();

    expect(stateOf()).toEqual(signedOut);
  });

  it('refreshUser keeps the session through a server or network failure', async () => {
    stubFetch({ status: 503 }, new TypeError('Failed to fetch'));
    const { store, signIn, stateOf } = setup();
    const user = aUser();
    signIn(user);

    await store.getState().refreshUser();
    await store.getState().refreshUser();

    expect(stateOf()).toMatchObject({ isAuthenticated: true, user });
  });

  it('refreshUser with retry delays reads again after a gateway failure, and takes the answer', async () => {
    const user = aUser({ balance: 10 });
    const calls = stubFetch({ status: 502 }, { status: 200, body: { ...user, balance: 70 } });
    const { store, signIn, stateOf } = setup();
    signIn(user);

    await store.getState().refreshUser({ retryDelaysMs: [1] });

    expect(calls).toHaveLength(2);
    expect(stateOf().user).toMatchObject({ balance: 70 });
  });

  it('refreshUser stops trying again once its signal aborts (a newer connection reads for itself)', async () => {
    const user = aUser({ balance: 10 });
    const calls = stubFetch({ status: 503 }, { status: 200, body: { ...user, balance: 70 } });
    const { store, signIn, stateOf } = setup();
    signIn(user);
    const controller = new AbortController();
    controller.abort();

    await store.getState().refreshUser({ retryDelaysMs: [1], signal: controller.signal });

    expect(calls).toHaveLength(1);
    expect(stateOf().user).toMatchObject({ balance: 10 });
  });
});

describe('auth store: a sign-in with a second factor', () => {
  it('goes on to the second factor when the password was right: no error, the token kept, signed out', async () => {
    stubFetch({
      status: 401,
      body: { message: 'Enter the code from your authenticator app', code: 'MFA_REQUIRED', mfa_token: 'tok_mfa' },
    });
    const { store, stateOf } = setup();
    await expect(store.getState().login(credentials)).resolves.toBe(false);
    expect(store.getState().mfaToken).toBe('tok_mfa');
    // A server that names no ways: an app's code or a recovery code, as before passkeys.
    expect(store.getState().mfaMethods).toEqual(['totp', 'recovery_code']);
    expect(stateOf()).toEqual(signedOut);
  });

  it('keeps the ways the server names to finish it, and only the ones it knows', async () => {
    stubFetch({
      status: 401,
      body: {
        message: 'Use your passkey, or enter a code from your authenticator app',
        code: 'MFA_REQUIRED',
        mfa_token: 'tok_mfa',
        methods: ['passkey', 'carrier-pigeon', 'recovery_code'],
      },
    });
    const { store } = setup();
    await store.getState().login(credentials);
    expect(store.getState()).toMatchObject({ mfaToken: 'tok_mfa', mfaMethods: ['passkey', 'recovery_code'] });
    store.getState().cancelSecondFactor();
    expect(store.getState()).toMatchObject({ mfaToken: null, mfaMethods: [] });
  });

  it('a browser without passkeys is told so, and the sign-in waiting for its second factor stays', async () => {
    const calls = stubFetch({ status: 200, body: { challenge: 'c'.repeat(43), rpId: 'localhost' } });
    const { store, stateOf } = setup();
    store.setState({ mfaToken: 'tok_mfa', mfaMethods: ['passkey', 'recovery_code'] });
    await expect(store.getState().signInWithPasskey()).resolves.toBe(false);
    expect(calls.map((c) => c.url)).toEqual(['/v1/auth/passkey/options']);
    expect(calls[0]!.body).toEqual({ mfa_token: 'tok_mfa' });
    expect(store.getState()).toMatchObject({
      mfaToken: 'tok_mfa',
      error: { message: 'This browser cannot use passkeys' },
    });
    expect(stateOf().isAuthenticated).toBe(false);
  });

  it('finishes with a code and the token, and signs in as login does', async () => {
    const user = aUser();
    const calls = stubFetch({ status: 200, body: { user } });
    const { store, stateOf } = setup();
    store.setState({ mfaToken: 'tok_mfa' });
    await expect(store.getState().signInWithSecondFactor('123456')).resolves.toBe(true);
    expect(calls).toEqual([
      { url: '/v1/auth/mfa', method: 'POST', body: { mfa_token: 'tok_mfa', code: '123456' }, credentials: 'include' },
    ]);
    expect(store.getState().mfaToken).toBeNull();
    expect(stateOf()).toEqual({ loading: false, error: null, success: true, isAuthenticated: true, user });
  });

  it('keeps the token after a wrong code, and drops it when the sign-in took too long', async () => {
    stubFetch({ status: 401, body: { message: 'That code is not right', code: 'MFA_INVALID' } });
    const { store } = setup();
    store.setState({ mfaToken: 'tok_mfa' });
    await expect(store.getState().signInWithSecondFactor('000000')).resolves.toBe(false);
    expect(store.getState()).toMatchObject({ mfaToken: 'tok_mfa', error: { code: 'MFA_INVALID' } });
    stubFetch({ status: 401, body: { message: 'Your sign-in took too long', code: 'MFA_TOKEN_INVALID' } });
    await expect(store.getState().signInWithSecondFactor('111111')).resolves.toBe(false);
    expect(store.getState()).toMatchObject({ mfaToken: null, error: { code: 'MFA_TOKEN_INVALID' } });
  });

  it('sends nothing without a token, and cancelling goes back to the password', async () => {
    const calls = stubFetch({ status: 200, body: { user: aUser() } });
    const { store } = setup();
    await expect(store.getState().signInWithSecondFactor('123456')).resolves.toBe(false);
    expect(calls).toEqual([]);
    store.setState({ mfaToken: 'tok_mfa' });
    store.getState().cancelSecondFactor();
    expect(store.getState().mfaToken).toBeNull();
  });
});
