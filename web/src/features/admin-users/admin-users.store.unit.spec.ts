import { afterEach, describe, expect, it, vi } from 'vitest';
import { aUser } from '../../testing/fixtures';
import { stubFetch } from '../../testing/fetch-stub';
import { createAdminUsersStore } from './admin-users.store';
import { parseCredits } from './credits';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('admin users store', () => {
  it('loads a page of 10', async () => {
    const users = [aUser({ id: 'a' }), aUser({ id: 'b' })];
    const calls = stubFetch({
      status: 200,
      body: { users, pagination: { page: 2, limit: 10, total: 12 }, new_users_last_30_days: 4 },
    });
    const store = createAdminUsersStore();

    await store.getState().fetchUsers(2);

    expect(calls[0]).toMatchObject({ url: '/v1/admin/users?page=2&limit=10', method: 'GET' });
    expect(store.getState()).toMatchObject({
      users,
      pagination: { page: 2, limit: 10, total: 12 },
      newUsersLast30Days: 4,
      loading: false,
      error: null,
    });
  });

  it("falls back to 'Failed to fetch users'", async () => {
    stubFetch({ status: 500 });
    const store = createAdminUsersStore();
    await store.getState().fetchUsers(1);
    expect(store.getState()).toMatchObject({ loading: false, error: 'Failed to fetch users' });
  });

  it('replaces the row with the user the server answered with', async () => {
    const before = aUser({ id: 'a', balance: 1 });
    const after = { ...before, balance: 250 };
    const calls = stubFetch({ status: 200, body: { message: 'Credits updated', user: after } });
    const store = createAdminUsersStore();
    store.setState({ users: [before, aUser({ id: 'b' })] });

    await expect(store.getState().setCredits('a', 250)).resolves.toEqual({
      ok: true,
      user: after,
      message: 'Credits updated',
    });

    expect(calls[0]).toMatchObject({ url: '/v1/admin/users/a/credits', method: 'PUT', body: { credits: 250 } });
    expect(store.getState().users.map((u) => u.balance)).toEqual([250, 100]);
  });

  it('reports the server message, or the fallback, when setting credits fails', async () => {
    stubFetch({ status: 400, body: { message: 'credits must be 0 or more' } }, { status: 500 });
    const store = createAdminUsersStore();
    await expect(store.getState().setCredits('a', 1)).resolves.toEqual({
      ok: false,
      message: 'credits must be 0 or more',
    });
    await expect(store.getState().setCredits('a', 1)).resolves.toEqual({
      ok: false,
      message: 'Failed to update user credits',
    });
  });
});

describe('admin users store: reset password and ban', () => {
  it('sends a password reset e-mail and passes on the server message', async () => {
    const calls = stubFetch({ status: 200, body: { message: 'Password reset email sent' } });
    const store = createAdminUsersStore();
    await expect(store.getState().resetPassword('a')).resolves.toEqual({
      ok: true,
      message: 'Password reset email sent',
    });
    expect(calls[0]).toMatchObject({ url: '/v1/admin/users/a/reset-password', method: 'POST', body: undefined });
  });

  it("falls back to 'Failed to send password reset'", async () => {
    stubFetch({ status: 500 });
    const store = createAdminUsersStore();
    await expect(store.getState().resetPassword('a')).resolves.toEqual({
      ok: false,
      message: 'Failed to send password reset',
    });
  });

  it('replaces the row with the banned or unbanned user', async () => {
    const before = aUser({ id: 'a', is_banned: false });
    const after = { ...before, is_banned: true };
    const calls = stubFetch({ status: 200, body: { message: 'User has been banned', user: after } });
    const store = createAdminUsersStore();
    store.setState({ users: [before] });

    await expect(store.getState().toggleBan('a')).resolves.toEqual({
      ok: true,
      user: after,
      message: 'User has been banned',
    });
    expect(calls[0]).toMatchObject({ url: '/v1/admin/users/a/toggle-ban', method: 'POST' });
    expect(store.getState().users[0]?.is_banned).toBe(true);
  });

  it("reports the server message or 'Failed to toggle user ban status'", async () => {
    stubFetch({ status: 400, body: { message: 'You cannot ban yourself' } }, { status: 500 });
    const store = createAdminUsersStore();
    await expect(store.getState().toggleBan('a')).resolves.toEqual({
      ok: false,
      message: 'You cannot ban yourself',
    });
    await expect(store.getState().toggleBan('a')).resolves.toEqual({
      ok: false,
      message: 'Failed to toggle user ban status',
    });
  });
});

describe('credits form value', () => {
  it('accepts whole numbers of at least 0', () => {
    expect(parseCredits('0')).toBe(0);
    expect(parseCredits(' 250 ')).toBe(250);
  });

  it('rejects anything else', () => {
    for (const value of ['', '-1', '1.5', 'abc', '1e3', '99999999999999999999']) expect(parseCredits(value)).toBeNull();
  });
});
