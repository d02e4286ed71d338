import { afterEach, describe, expect, it, vi } from 'vitest';
import { aUser } from '../../testing/fixtures';
import { stubFetch } from '../../testing/fetch-stub';
import { createAuthStore, initialAuthState } from './auth.store';

const credentials = { email: 'user@seatlink.test', password: 'User1234!', token: null };

function stateOf(store: ReturnType<typeof createAuthStore>) {
  const { loading, error, success, isAuthenticated, user } = store.getState();
  return { loading, error, success, isAuthenticated, user };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('auth store: login', () => {
  it('posts the credentials with cookies and stores the user of the response', async () => {
    const user = aUser();
    const calls = stubFetch({ status: 200, body: { user } });
    const store = createAuthStore();

    await expect(store.getState().login(credentials)).resolves.toBe(true);

    expect(calls).toEqual([{ url: '/v1/auth', method: 'POST', body: credentials, credentials: 'include' }]);
    expect(stateOf(store)).toEqual({ loading: false, error: null, success: true, isAuthenticated: true, user });
  });

  it('clears the previous error while pending', async () => {
    stubFetch({ status: 200, body: { user: aUser() } });
    const store = createAuthStore();
    store.setState({ error: { message: 'Old' } });

    const pending = store.getState().login(credentials);
    expect(store.getState()).toMatchObject({ error: null, loading: true });
    await pending;
  });

  it('stores the server message and code on failure', async () => {
    stubFetch({ status: 403, body: { message: 'Please verify your email', code: 'EMAIL_NOT_VERIFIED' } });
    const store = createAuthStore();

    await expect(store.getState().login(credentials)).resolves.toBe(false);

    expect(stateOf(store)).toEqual({
      ...initialAuthState,
      error: { message: 'Please verify your email', code: 'EMAIL_NOT_VERIFIED' },
    });
  });

  it("falls back to 'Login failed' when the server sends no message", async () => {
    stubFetch({ status: 500 });
    const store = createAuthStore();
    await store.getState().login(credentials);
    expect(store.getState().error).toEqual({ message: 'Login failed' });
  });

  it('gives code UNKNOWN_ERROR for a network failure', async () => {
    stubFetch(new TypeError('Failed to fetch'));
    const store = createAuthStore();
    await store.getState().login(credentials);
    expect(store.getState().error).toEqual({ message: 'Login failed', code: 'UNKNOWN_ERROR' });
  });
});

describe('auth store: status check', () => {
  it('takes the body of GET /v1/me as the user', async () => {
    const user = aUser({ is_admin: true });
    const calls = stubFetch({ status: 200, body: user });
    const store = createAuthStore();

    const pending = store.getState().checkStatus();
    expect(store.getState().loading).toBe(true);
    await pending;

    expect(calls[0]).toMatchObject({ url: '/v1/me', method: 'GET', credentials: 'include' });
    expect(stateOf(store)).toMatchObject({ loading: false, isAuthenticated: true, user });
  });

  it('resets to the signed-out initial state on failure', async () => {
    stubFetch({ status: 401, body: { message: 'Unauthorized' } });
    const store = createAuthStore();
    store.setState({ isAuthenticated: true, user: aUser(), error: { message: 'x' }, success: true });

    await store.getState().checkStatus();

    expect(stateOf(store)).toEqual(initialAuthState);
  });
});

describe('auth store: logout', () => {
  it('resets everything on success', async () => {
    const calls = stubFetch({ status: 200, body: { message: 'Logged out' } });
    const store = createAuthStore();
    store.setState({ isAuthenticated: true, user: aUser(), success: true });

    await expect(store.getState().logout()).resolves.toBe(true);

    expect(calls[0]).toMatchObject({ url: '/v1/logout', method: 'POST', credentials: 'include' });
    expect(stateOf(store)).toEqual(initialAuthState);
  });

  it("keeps the session and stores the error on failure (fallback 'Logout failed')", async () => {
    stubFetch({ status: 500 }, { status: 503, body: { message: 'Try later' } });
    const store = createAuthStore();
    const user = aUser();
    store.setState({ isAuthenticated: true, user });

    await expect(store.getState().logout()).resolves.toBe(false);
    expect(stateOf(store)).toMatchObject({ isAuthenticated: true, user, error: { message: 'Logout failed' } });

    await store.getState().logout();
    expect(store.getState().error).toEqual({ message: 'Try later' });
  });

  it('treats a 401 (session already gone) as signed out', async () => {
    stubFetch({ status: 401, body: { message: 'Unauthorized' } });
    const store = createAuthStore();
    store.setState({ isAuthenticated: true, user: aUser() });

    await expect(store.getState().logout()).resolves.toBe(true);
    expect(stateOf(store)).toEqual(initialAuthState);
  });
});

describe('auth store: live balance', () => {
  it('applies balance.updated to the signed-in user only', () => {
    const store = createAuthStore();
    store.setState({ isAuthenticated: true, user: aUser({ id: 'me', balance: 10 }) });

    store.getState().setBalance('someone-else', 99);
    expect(store.getState().user?.balance).toBe(10);

    store.getState().setBalance('me', 42);
    expect(store.getState().user?.balance).toBe(42);
  });

  it('refreshUser signs out when the session has ended', async () => {
    stubFetch({ status: 401, body: { message: 'Unauthorized' } });
    const store = createAuthStore();
    store.setState({ isAuthenticated: true, user: aUser() });

    await store.getState().refreshUser();

    expect(stateOf(store)).toEqual(initialAuthState);
  });

  it('refreshUser signs out a banned user (403)', async () => {
    stubFetch({ status: 403, body: { message: 'Your account has been banned' } });
    const store = createAuthStore();
    store.setState({ isAuthenticated: true, user: aUser() });

    await store.getState().refreshUser();

    expect(stateOf(store)).toEqual(initialAuthState);
  });

  it('refreshUser keeps the session through a server or network failure', async () => {
    stubFetch({ status: 503 }, new TypeError('Failed to fetch'));
    const store = createAuthStore();
    const user = aUser();
    store.setState({ isAuthenticated: true, user });

    await store.getState().refreshUser();
    await store.getState().refreshUser();

    expect(stateOf(store)).toMatchObject({ isAuthenticated: true, user });
  });
});
