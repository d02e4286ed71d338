import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '@seatlink/contracts';
import { EVENT_STORE, type EventStore } from '../../infra/event-store/event-store.port.js';
import { ApiClient, startTestStack, type TestStack } from '../../testing/test-app.js';

describe('PUT /v1/admin/users/{id}/credits and GET /v1/admin/users', () => {
  let stack: TestStack;
  let admin: ApiClient;
  let user: ApiClient;
  let userId: string;

  beforeAll(async () => {
    stack = await startTestStack();
    admin = new ApiClient(stack.baseUrl);
    user = new ApiClient(stack.baseUrl);
    expect((await admin.login('admin@seatlink.test', 'Admin123!')).status).toBe(200);
    const login = await user.login('user@seatlink.test', 'User1234!');
    userId = (login.body.user as User).id;
  });
  afterAll(async () => stack?.close());

  it('sets the credits and the user sees the new balance in GET /v1/me at once', async () => {
    const res = await admin.request('PUT', `/v1/admin/users/${userId}/credits`, { credits: 275 });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Credits updated successfully');
    expect((res.body.user as User).balance).toBe(275);
    const me = await user.request('GET', '/v1/me');
    expect(me.body.balance).toBe(275);
    expect(me.body.distribution_cost).toBe(5);
  });

  it('records a CreditsSet event on the credit stream with the admin id and IP in its metadata', async () => {
    await admin.request('PUT', `/v1/admin/users/${userId}/credits`, { credits: 40 });
    const store = stack.app.get<EventStore>(EVENT_STORE);
    const { events } = await store.readStream(`credits-${userId}`);
    const last = events.at(-1)!;
    const me = await admin.request('GET', '/v1/me');
    expect(last.type).toBe('CreditsSet');
    expect(last.data).toMatchObject({ userId, credits: 40, setBy: me.body.id });
    expect(last.metadata).toMatchObject({ actorId: me.body.id, ip: '127.0.0.1' });
  });

  it('answers a visitor with 401, a non-admin with 403, and writes nothing', async () => {
    const before = (await user.request('GET', '/v1/me')).body.balance;
    const visitor = new ApiClient(stack.baseUrl);
    const asVisitor = await visitor.request('PUT', `/v1/admin/users/${userId}/credits`, { credits: 9 });
    expect(asVisitor.status).toBe(401);
    expect(asVisitor.body.message).toBe('Not authenticated');
    const asUser = await user.request('PUT', `/v1/admin/users/${userId}/credits`, { credits: 9 });
    expect(asUser.status).toBe(403);
    expect(asUser.body.message).toBe('Admin access required');
    expect((await visitor.request('GET', '/v1/admin/users')).status).toBe(401);
    expect((await user.request('GET', '/v1/admin/users')).status).toBe(403);
    expect((await user.request('GET', '/v1/me')).body.balance).toBe(before);
  });

  it.each([
    ['a negative number', { credits: -1 }, /credits/],
    ['a fraction', { credits: 1.5 }, /whole number/],
    ['a string', { credits: '10' }, /credits/],
    ['no credits field', {}, /credits/],
    ['an oversized number', { credits: 1e12 }, /at most/],
  ])('refuses %s with 400 and a message', async (_label, body, message) => {
    const before = (await user.request('GET', '/v1/me')).body.balance;
    const res = await admin.request('PUT', `/v1/admin/users/${userId}/credits`, body);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(message);
    expect((await user.request('GET', '/v1/me')).body.balance).toBe(before);
  });

  it('refuses malformed JSON with 400 and a message', async () => {
    const res = await admin.request('PUT', `/v1/admin/users/${userId}/credits`, undefined, { raw: '{"credits": 1' });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/not valid JSON/);
  });

  it('answers an unknown user with 404 and a malformed id with 400', async () => {
    const unknown = await admin.request('PUT', '/v1/admin/users/7a1c8f2e-1111-4222-8333-944455556666/credits', {
      credits: 1,
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('User not found');
    const malformed = await admin.request('PUT', '/v1/admin/users/not-a-uuid/credits', { credits: 1 });
    expect(malformed.status).toBe(400);
    expect(malformed.body.message).toMatch(/UUID/);
  });

  it('lists users a page at a time with the new-user count', async () => {
    const res = await admin.request('GET', '/v1/admin/users?page=1&limit=10');
    expect(res.status).toBe(200);
    const users = res.body.users as User[];
    expect(users.map((u) => u.email).sort()).toEqual(['admin@seatlink.test', 'user@seatlink.test']);
    expect(res.body.pagination).toEqual({ page: 1, limit: 10, total: 2 });
    expect(res.body.new_users_last_30_days).toBe(2);
    const page2 = await admin.request('GET', '/v1/admin/users?page=2&limit=1');
    expect((page2.body.users as User[]).length).toBe(1);
    expect((await admin.request('GET', '/v1/admin/users?page=0')).status).toBe(400);
    expect((await admin.request('GET', '/v1/admin/users?limit=abc')).status).toBe(400);
  });
});
