import { randomUUID } from 'node:crypto';
import type { InviteCode, User } from '@seatlink/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, startTestStack, type TestStack } from '../../testing/test-app.js';
import { DATABASE } from '../db/database.module.js';
import type { Database } from '../db/database.js';

const tomorrow = () => new Date(Date.now() + 36 * 3600_000).toISOString().slice(0, 10);

describe('Idempotency-Key on state-changing calls', () => {
  let stack: TestStack;
  let admin: ApiClient;
  let database: Database;
  let userId: string;

  beforeAll(async () => {
    stack = await startTestStack();
    database = stack.app.get<Database>(DATABASE);
    admin = new ApiClient(stack.baseUrl);
    await admin.login('admin@seatlink.test', 'Admin123!');
    const user = new ApiClient(stack.baseUrl);
    userId = ((await user.login('user@seatlink.test', 'User1234!')).body.user as User).id;
  });
  afterAll(async () => stack?.close());

  const eventsOf = async (streamId: string, type: string) =>
    (
      await database.query<{ n: number }>('select count(*)::int as n from events where stream_id = $1 and type = $2', [
        streamId,
        type,
      ])
    )[0]!.n;
  const key = () => ({ 'idempotency-key': `k-${randomUUID()}` });

  it('answers a retry with the first answer and changes nothing (set credits)', async () => {
    const headers = key();
    const before = await eventsOf(`credits-${userId}`, 'CreditsSet');
    const first = await admin.request(
      'PUT',
      `/v1/admin/users/${userId}/credits`,
      { credits: 321, reason: 'Test' },
      { headers },
    );
    // Someone else changes the balance in between; the retry must not set it back.
    await admin.request('PUT', `/v1/admin/users/${userId}/credits`, { credits: 5, reason: 'Test' });
    const retry = await admin.request(
      'PUT',
      `/v1/admin/users/${userId}/credits`,
      { credits: 321, reason: 'Test' },
      { headers },
    );
    expect(first.status).toBe(200);
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual(first.body);
    expect(await eventsOf(`credits-${userId}`, 'CreditsSet')).toBe(before + 2);
    const users = (await admin.request('GET', '/v1/admin/users')).body.users as User[];
    expect(users.find((u) => u.id === userId)?.balance).toBe(5);
  });

  it('does not unban on a retried ban', async () => {
    const target = new ApiClient(stack.baseUrl);
    const invite = (await admin.request('POST', '/v1/admin/invites', { max_uses: 1, expires_at: tomorrow() })).body
      .invite_code as InviteCode;
    const email = `ban-${randomUUID().slice(0, 8)}@example.com`;
    await target.request('POST', '/v1/auth/register', {
      email,
      first_name: 'Bo',
      last_name: 'Ban',
      password: 'Str0ng!pass',
      invite_code: invite.code,
      token: null,
    });
    const users = (await admin.request('GET', '/v1/admin/users?limit=100')).body.users as User[];
    const id = users.find((u) => u.email === email)!.id;
    const headers = key();
    const first = await admin.request('POST', `/v1/admin/users/${id}/toggle-ban`, undefined, { headers });
    const retry = await admin.request('POST', `/v1/admin/users/${id}/toggle-ban`, undefined, { headers });
    expect((first.body.user as User).is_banned).toBe(true);
    expect(retry.body).toEqual(first.body);
    expect(await eventsOf(`user-${id}`, 'UserBanned')).toBe(1);
    expect(await eventsOf(`user-${id}`, 'UserUnbanned')).toBe(0);
  });

  it('runs a burst of 12 concurrent calls with one key once: one change, the others replay it or are told it runs', async () => {
    const headers = key();
    const body = { max_uses: 7, expires_at: tomorrow() };
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => admin.request('POST', '/v1/admin/invites', body, { headers })),
    );
    const created = answers.filter((a) => a.status === 201);
    const running = answers.filter((a) => a.status === 409);
    expect(created.length + running.length).toBe(12);
    expect(created.length).toBeGreaterThanOrEqual(1);
    for (const r of running) expect(r.body.code).toBe('IDEMPOTENCY_IN_PROGRESS');
    const codes = new Set(created.map((a) => (a.body.invite_code as InviteCode).code));
    expect(codes.size).toBe(1);
    const [code] = codes;
    expect(await eventsOf(`invite-${code}`, 'InviteCodeCreated')).toBe(1);
    const list = (await admin.request('GET', '/v1/admin/invites')).body.invite_codes as InviteCode[];
    expect(list.filter((c) => c.code === code)).toHaveLength(1);
  });

  it('refuses the same key with another body (422), and keys per caller and per route', async () => {
    const headers = key();
    const first = await admin.request(
      'POST',
      '/v1/admin/invites',
      { max_uses: 2, expires_at: tomorrow() },
      { headers },
    );
    expect(first.status).toBe(201);
    const other = await admin.request(
      'POST',
      '/v1/admin/invites',
      { max_uses: 3, expires_at: tomorrow() },
      { headers },
    );
    expect(other.status).toBe(422);
    expect(other.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    // The same key on another route is another request.
    const credits = await admin.request(
      'PUT',
      `/v1/admin/users/${userId}/credits`,
      { credits: 9, reason: 'Test' },
      { headers },
    );
    expect(credits.status).toBe(200);
    // The same key from another caller (a visitor's IP scope) is theirs alone.
    const visitor = await new ApiClient(stack.baseUrl).request(
      'POST',
      '/v1/waitlist',
      { email: `w-${randomUUID().slice(0, 6)}@example.com`, first_name: 'Wai', last_name: 'Ter', token: null },
      { headers },
    );
    expect(visitor.status).toBe(200);
  });

  it.each([
    ['empty', ''],
    ['with a control character', 'abc\u0001def'],
    ['with a space', 'abc def'],
    ['too long', 'x'.repeat(256)],
  ])('refuses a key %s with 400 and writes nothing', async (_label, value) => {
    const before = await eventsOf(`credits-${userId}`, 'CreditsSet');
    const res = await admin
      .request(
        'PUT',
        `/v1/admin/users/${userId}/credits`,
        { credits: 44, reason: 'Test' },
        { headers: { 'idempotency-key': value } },
      )
      .catch((err: unknown) => ({ status: 0, body: { message: String(err), code: undefined } }));
    // fetch itself refuses some header values (a control character): nothing reaches the server then either.
    if (res.status !== 0) {
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('INVALID_IDEMPOTENCY_KEY');
    }
    expect(await eventsOf(`credits-${userId}`, 'CreditsSet')).toBe(before);
  });

  it('keeps nothing for a failed request: a retry after a refusal runs again', async () => {
    const headers = key();
    const missing = randomUUID();
    const first = await admin.request(
      'PUT',
      `/v1/admin/users/${missing}/credits`,
      { credits: 1, reason: 'Test' },
      { headers },
    );
    expect(first.status).toBe(404);
    const rows = await database.query('select 1 from idempotency_keys where state = $1', ['running']);
    expect(rows).toEqual([]);
    const again = await admin.request(
      'PUT',
      `/v1/admin/users/${missing}/credits`,
      { credits: 1, reason: 'Test' },
      { headers },
    );
    expect(again.status).toBe(404);
  });

  it('registers once when a registration is retried with its key', async () => {
    const invite = (await admin.request('POST', '/v1/admin/invites', { max_uses: 5, expires_at: tomorrow() })).body
      .invite_code as InviteCode;
    const email = `retry-${randomUUID().slice(0, 8)}@example.com`;
    const body = {
      email,
      first_name: 'Rey',
      last_name: 'Try',
      password: 'Str0ng!pass',
      invite_code: invite.code,
      token: null,
    };
    const headers = key();
    const visitor = new ApiClient(stack.baseUrl);
    const first = await visitor.request('POST', '/v1/auth/register', body, { headers });
    const retry = await visitor.request('POST', '/v1/auth/register', body, { headers });
    expect(first.status).toBe(201);
    expect(retry.status).toBe(201);
    const registered = await database.query<{ n: number }>(
      `select count(*)::int as n from events where type = 'UserRegistered' and data->>'email' = $1`,
      [email],
    );
    expect(registered[0]!.n).toBe(1);
    const codes = (await admin.request('GET', '/v1/admin/invites')).body.invite_codes as InviteCode[];
    expect(codes.find((c) => c.code === invite.code)?.used).toBe(1);
  });
});
