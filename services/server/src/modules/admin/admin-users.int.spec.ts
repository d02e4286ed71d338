import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '@seatlink/contracts';
import { EVENT_STORE, type EventStore } from '../../infra/event-store/event-store.port.js';
import { ApiClient, startTestStack, subscriptionsCaughtUp, type TestStack } from '../../testing/test-app.js';

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
  const store = () => stack.app.get<EventStore>(EVENT_STORE);

  it('sets the credits and the user sees the new balance in GET /v1/me at once', async () => {
    const res = await admin.request('PUT', `/v1/admin/users/${userId}/credits`, { credits: 275, reason: 'Test' });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Credits updated successfully');
    expect((res.body.user as User).balance).toBe(275);
    const me = await user.request('GET', '/v1/me');
    expect(me.body.balance).toBe(275);
    expect(me.body.distribution_cost).toBe(5);
  });

  it('records a CreditsSet event on the credit stream with the admin id and IP in its metadata', async () => {
    await admin.request('PUT', `/v1/admin/users/${userId}/credits`, { credits: 40, reason: 'Test' });
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
    const asVisitor = await visitor.request('PUT', `/v1/admin/users/${userId}/credits`, { credits: 9, reason: 'Test' });
    expect(asVisitor.status).toBe(401);
    expect(asVisitor.body.message).toBe('Not authenticated');
    const asUser = await user.request('PUT', `/v1/admin/users/${userId}/credits`, { credits: 9, reason: 'Test' });
    expect(asUser.status).toBe(403);
    expect(asUser.body.message).toBe('Admin access required');
    expect((await visitor.request('GET', '/v1/admin/users')).status).toBe(401);
    expect((await user.request('GET', '/v1/admin/users')).status).toBe(403);
    expect((await user.request('GET', '/v1/me')).body.balance).toBe(before);
  });

  it.each([
    ['a negative number', { credits: -1, reason: 'Test' }, /credits/],
    ['a fraction', { credits: 1.5 }, /whole number/],
    ['a string', { credits: '10', reason: 'Test' }, /credits/],
    ['no credits field', {}, /credits/],
    ['an oversized number', { credits: 1e12 }, /at most/],
  ])('refuses %s with 400 and a message', async (_label, body, message) => {
    const before = (await user.request('GET', '/v1/me')).body.balance;
    const res = await admin.request('PUT', `/v1/admin/users/${userId}/credits`, body);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(message);
    expect((await user.request('GET', '/v1/me')).body.balance).toBe(before);
  });

  it('records the reason in the CreditsSet event, with the balance it replaced', async () => {
    const before = (await user.request('GET', '/v1/me')).body.balance as number;
    const res = await admin.request('PUT', `/v1/admin/users/${userId}/credits`, {
      credits: before + 25,
      reason: '  Goodwill for the outage on 3 March  ',
    });
    expect(res.status).toBe(200);
    const { events } = await store().readStream(`credits-${userId}`);
    expect(events.at(-1)!.data).toMatchObject({
      credits: before + 25,
      previousBalance: before,
      reason: 'Goodwill for the outage on 3 March',
    });
  });

  it.each([
    ['no reason', {}, 'reason: Reason is required'],
    ['an empty reason', { reason: '' }, 'reason: Reason is required'],
    ['a reason of spaces', { reason: '   ' }, 'reason: Reason is required'],
    ['a reason that is not text', { reason: 42 }, 'reason: Reason is required'],
    ['a 201-character reason', { reason: 'x'.repeat(201) }, 'reason: Reason is too long'],
    ['a 100,000-character reason', { reason: 'x'.repeat(100_000) }, 'reason: Reason is too long'],
    ['a NUL in the reason', { reason: 'Goodwill\u0000' }, 'reason: Reason contains characters that are not allowed'],
    ['a line break in the reason', { reason: 'Good\nwill' }, 'reason: Reason contains characters that are not allowed'],
    ['a bidi override in the reason', { reason: 'Goodwill \u202Eetouq' }, 'not allowed'],
    ['a bidi isolate in the reason', { reason: 'Goodwill \u2066x\u2069' }, 'not allowed'],
    ['a lone surrogate in the reason', { reason: 'Goodwill \uD800' }, 'not allowed'],
    ['a negative expected balance', { reason: 'Fine', expected_balance: -1 }, 'expected_balance must be 0 or more'],
    [
      'a fractional expected balance',
      { reason: 'Fine', expected_balance: 1.5 },
      'expected_balance must be a whole number',
    ],
  ])('refuses %s with 400 and a clear message, and writes nothing', async (_label, extra, message) => {
    const before = await store().readStream(`credits-${userId}`);
    const res = await admin.request('PUT', `/v1/admin/users/${userId}/credits`, { credits: 12, ...extra });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(message);
    expect((await store().readStream(`credits-${userId}`)).events).toHaveLength(before.events.length);
  });

  it('sets from the balance the admin confirmed, and refuses with 409 once it moved, writing nothing', async () => {
    const before = (await user.request('GET', '/v1/me')).body.balance as number;
    const set = await admin.request('PUT', `/v1/admin/users/${userId}/credits`, {
      credits: before + 1,
      reason: 'Confirmed from what it was',
      expected_balance: before,
    });
    expect(set.status).toBe(200);
    const length = (await store().readStream(`credits-${userId}`)).events.length;
    const stale = await admin.request('PUT', `/v1/admin/users/${userId}/credits`, {
      credits: 999,
      reason: 'Confirmed from a stale balance',
      expected_balance: before,
    });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ code: 'BALANCE_CHANGED', balance: before + 1 });
    expect(stale.body.message).toContain(`changed to ${before + 1}`);
    expect((await store().readStream(`credits-${userId}`)).events).toHaveLength(length);
    expect((await user.request('GET', '/v1/me')).body.balance).toBe(before + 1);
  });

  it('holds the balance exact under a burst of concurrent sets: each set replaces the one before it, in turn', async () => {
    const from = (await store().readStream(`credits-${userId}`)).events.length;
    const values = Array.from({ length: 30 }, (_, i) => 1000 + i * 7);
    const answers = await Promise.all(
      values.map((credits, i) =>
        admin.request('PUT', `/v1/admin/users/${userId}/credits`, { credits, reason: `Burst ${i}` }),
      ),
    );
    expect(answers.map((a) => a.status).every((s) => s === 200 || s === 202)).toBe(true);
    const sets = (await store().readStream(`credits-${userId}`)).events.slice(from - 1);
    const chain = sets.map((e) => e.data as { credits: number; previousBalance: number; reason: string });
    // Exactly one event per request, each recording the balance the one before it left.
    expect(
      chain
        .slice(1)
        .map((c) => c.reason)
        .sort(),
    ).toEqual(values.map((_, i) => `Burst ${i}`).sort());
    for (let i = 1; i < chain.length; i++) expect(chain[i]!.previousBalance).toBe(chain[i - 1]!.credits);
    const last = chain.at(-1)!.credits;
    await subscriptionsCaughtUp(stack.app);
    expect((await user.request('GET', '/v1/me')).body.balance).toBe(last);

    // The same burst, each confirming the balance it saw: exactly one is set, the others are refused and write nothing.
    const length = (await store().readStream(`credits-${userId}`)).events.length;
    const confirmed = await Promise.all(
      values.map((credits, i) =>
        admin.request('PUT', `/v1/admin/users/${userId}/credits`, {
          credits: credits + 1,
          reason: `Confirmed ${i}`,
          expected_balance: last,
        }),
      ),
    );
    expect(confirmed.filter((a) => a.status === 200 || a.status === 202)).toHaveLength(1);
    expect(confirmed.filter((a) => a.status === 409)).toHaveLength(values.length - 1);
    expect((await store().readStream(`credits-${userId}`)).events).toHaveLength(length + 1);
  });

  it('refuses malformed JSON with 400 and a message', async () => {
    const res = await admin.request('PUT', `/v1/admin/users/${userId}/credits`, undefined, { raw: '{"credits": 1' });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/not valid JSON/);
  });

  it('answers an unknown user with 404 and a malformed id with 400', async () => {
    const unknown = await admin.request('PUT', '/v1/admin/users/7a1c8f2e-1111-4222-8333-944455556666/credits', {
      credits: 1,
      reason: 'Test',
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('User not found');
    const malformed = await admin.request('PUT', '/v1/admin/users/not-a-uuid/credits', { credits: 1, reason: 'Test' });
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
