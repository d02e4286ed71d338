import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AdminUsersResponse, User } from '@seatlink/contracts';
import { createQueryClient } from '../../lib/create-query-client';
import { querySlice } from '../../lib/query-slice';
import { aUser } from '../../testing/fixtures';
import { stubFetch } from '../../testing/fetch-stub';
import { adminUsersQuery, resetPassword, setCredits, toggleBan, USERS_FETCH_FAILED } from './admin-users.queries';
import { parseCredits, reasonError } from './credits';

type Client = ReturnType<typeof createQueryClient>;

/** A client holding page 1 of the users list with `users`. */
async function holding(users: User[]): Promise<Client> {
  stubFetch({
    status: 200,
    body: { users, pagination: { page: 1, limit: 10, total: users.length }, new_users_last_30_days: 0 },
  });
  const client = createQueryClient();
  await client.fetchQuery(adminUsersQuery(1));
  vi.unstubAllGlobals();
  return client;
}
const rows = (client: Client) => client.getQueryData<AdminUsersResponse>(adminUsersQuery(1).queryKey)!.users;

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('admin users', () => {
  it('reads a page of 10', async () => {
    const users = [aUser({ id: 'a' }), aUser({ id: 'b' })];
    const calls = stubFetch({
      status: 200,
      body: { users, pagination: { page: 2, limit: 10, total: 12 }, new_users_last_30_days: 4 },
    });
    const client = createQueryClient();
    const page = await client.fetchQuery(adminUsersQuery(2));
    expect(calls[0]).toMatchObject({ url: '/v1/admin/users?page=2&limit=10', method: 'GET' });
    expect(page).toEqual({ users, pagination: { page: 2, limit: 10, total: 12 }, new_users_last_30_days: 4 });
  });

  it("falls back to 'Failed to fetch users'", async () => {
    stubFetch({ status: 500 });
    const client = createQueryClient();
    await expect(client.fetchQuery(adminUsersQuery(1))).rejects.toThrow();
    const state = client.getQueryCache().find<AdminUsersResponse>({ queryKey: adminUsersQuery(1).queryKey })!.state;
    expect(querySlice(state, USERS_FETCH_FAILED)).toMatchObject({ loading: false, error: 'Failed to fetch users' });
  });

  it('replaces the row with the user the server answered with', async () => {
    const before = aUser({ id: 'a', balance: 1 });
    const after = { ...before, balance: 250 };
    const client = await holding([before, aUser({ id: 'b' })]);
    const calls = stubFetch({ status: 200, body: { message: 'Credits updated', user: after } });

    await expect(setCredits(client, 'a', { credits: 250, reason: ' Goodwill ', expectedBalance: 1 })).resolves.toEqual({
      ok: true,
      user: after,
      message: 'Credits updated',
    });

    expect(calls[0]).toMatchObject({
      url: '/v1/admin/users/a/credits',
      method: 'PUT',
      body: { credits: 250, reason: 'Goodwill', expected_balance: 1 },
    });
    expect(rows(client).map((u) => u.balance)).toEqual([250, 100]);
  });

  it('reports the server message, or the fallback, when setting credits fails', async () => {
    const client = await holding([aUser({ id: 'a', balance: 1 })]);
    stubFetch({ status: 400, body: { message: 'credits must be 0 or more' } }, { status: 500 });
    const change = { credits: 1, reason: 'Fix', expectedBalance: 1 };
    await expect(setCredits(client, 'a', change)).resolves.toEqual({ ok: false, message: 'credits must be 0 or more' });
    await expect(setCredits(client, 'a', change)).resolves.toEqual({
      ok: false,
      message: 'Failed to update user credits',
    });
    expect(rows(client)[0]?.balance).toBe(1);
  });

  it('says the balance moved since the admin looked, and reads the list again', async () => {
    const client = await holding([aUser({ id: 'a', balance: 40 })]);
    const message = 'The balance changed to 35 since you looked: check the new balance and confirm again';
    stubFetch({ status: 409, body: { message, code: 'BALANCE_CHANGED', balance: 35 } });
    await expect(setCredits(client, 'a', { credits: 75, reason: 'Goodwill', expectedBalance: 40 })).resolves.toEqual({
      ok: false,
      message,
      balanceChanged: true,
    });
    expect(client.getQueryState(adminUsersQuery(1).queryKey)?.isInvalidated).toBe(true);
  });
});

describe('admin users: reset password and ban', () => {
  it('sends a password reset e-mail and passes on the server message', async () => {
    const calls = stubFetch({ status: 200, body: { message: 'Password reset email sent' } });
    await expect(resetPassword('a')).resolves.toEqual({
      ok: true,
      message: 'Password reset email sent',
    });
    expect(calls[0]).toMatchObject({ url: '/v1/admin/users/a/reset-password', method: 'POST', body: undefined });
  });

  it("falls back to 'Failed to send password reset'", async () => {
    stubFetch({ status: 500 });
    await expect(resetPassword('a')).resolves.toEqual({
      ok: false,
      message: 'Failed to send password reset',
    });
  });

  it('replaces the row with the banned or unbanned user', async () => {
    const before = aUser({ id: 'a', is_banned: false });
    const after = { ...before, is_banned: true };
    const client = await holding([before]);
    const calls = stubFetch({ status: 200, body: { message: 'User has been banned', user: after } });

    await expect(toggleBan(client, 'a')).resolves.toEqual({
      ok: true,
      user: after,
      message: 'User has been banned',
    });
    expect(calls[0]).toMatchObject({ url: '/v1/admin/users/a/toggle-ban', method: 'POST' });
    expect(rows(client)[0]?.is_banned).toBe(true);
  });

  it("reports the server message or 'Failed to toggle user ban status'", async () => {
    const client = await holding([aUser({ id: 'a' })]);
    stubFetch({ status: 400, body: { message: 'You cannot ban yourself' } }, { status: 500 });
    await expect(toggleBan(client, 'a')).resolves.toEqual({
      ok: false,
      message: 'You cannot ban yourself',
    });
    await expect(toggleBan(client, 'a')).resolves.toEqual({
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

describe('the reason for setting credits', () => {
  it.each([
    ['Goodwill for the outage', null],
    ['  Refund of a double charge  ', null],
    ['x'.repeat(200), null],
    ['', 'Reason is required'],
    ['   ', 'Reason is required'],
    ['x'.repeat(201), 'Reason is too long (at most 200 characters)'],
    ['Good\u0000will', 'Reason contains characters that are not allowed'],
    ['Goodwill \u202Eetouq', 'Reason contains characters that are not allowed'],
  ])('%j: %s', (reason, expected) => {
    expect(reasonError(reason)).toBe(expected);
  });
});
