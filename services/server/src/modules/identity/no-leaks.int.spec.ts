import type { InviteCode } from '@seatlink/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE } from '../../infra/db/database.module.js';
import type { Database } from '../../infra/db/database.js';
import { captureOutput } from '../../testing/capture-output.js';
import { ApiClient, startTestStack, type TestStack } from '../../testing/test-app.js';

const tomorrow = () => new Date(Date.now() + 36 * 3600_000).toISOString().slice(0, 10);
const PASSWORD = 'Secr3t!Horse-Battery';

describe('what a failure shows: no secret in a log line or an error body, no account told apart', () => {
  let stack: TestStack;
  let admin: ApiClient;
  let database: Database;
  let invite: InviteCode;

  beforeAll(async () => {
    stack = await startTestStack({ env: { LOG_LEVEL: 'log' } });
    database = stack.app.get<Database>(DATABASE);
    admin = new ApiClient(stack.baseUrl);
    await admin.login('admin@seatlink.test', 'Admin123!');
    invite = (await admin.request('POST', '/v1/admin/invites', { max_uses: 5, expires_at: tomorrow() })).body
      .invite_code as InviteCode;
  });
  afterAll(async () => stack?.close());

  it('logs a database failure during registration without the password, its hash or the query parameters', async () => {
    // The store refuses every registration event: the request fails deep down, after the password was hashed.
    await database.query(
      `alter table events add constraint test_no_registrations check (type <> 'UserRegistered') not valid`,
    );
    let res: Awaited<ReturnType<ApiClient['request']>> | undefined;
    const { log } = await captureOutput(async () => {
      res = await new ApiClient(stack.baseUrl).request('POST', '/v1/auth/register', {
        email: 'leak@example.com',
        first_name: 'Lee',
        last_name: 'Kage',
        password: PASSWORD,
        invite_code: invite.code,
        token: null,
      });
    });
    await database.query('alter table events drop constraint test_no_registrations');
    expect(res!.status).toBe(500);
    expect(res!.body).toEqual({ message: 'Something went wrong', statusCode: 500 });
    // The failure is logged...
    expect(log).toMatch(/test_no_registrations/);
    // ...without anything secret.
    expect(log).not.toContain(PASSWORD);
    expect(log).not.toContain('$argon2');
    expect(log).not.toMatch(/params:/);
    expect(JSON.stringify(res!.body)).not.toContain('argon2');
  });

  it('logs and parks a read model failure without the row it was writing (a password hash)', async () => {
    await database.query(
      `alter table users add constraint test_no_leak2 check (email <> 'leak2@example.com') not valid`,
    );
    const { log } = await captureOutput(async () => {
      const res = await new ApiClient(stack.baseUrl).request('POST', '/v1/auth/register', {
        email: 'leak2@example.com',
        first_name: 'Lee',
        last_name: 'Kage',
        password: PASSWORD,
        invite_code: invite.code,
        token: null,
      });
      expect([201, 202]).toContain(res.status);
      await expect
        .poll(
          async () => (await database.query(`select error from parked_events where subscription = 'users'`)).length,
          {
            timeout: 15_000,
          },
        )
        .toBe(1);
    });
    await database.query('alter table users drop constraint test_no_leak2');
    const [parked] = await database.query<{ error: string }>(
      `select error from parked_events where subscription = 'users'`,
    );
    expect(parked!.error).toMatch(/test_no_leak2/);
    for (const text of [log, parked!.error]) {
      expect(text).not.toContain(PASSWORD);
      expect(text).not.toContain('$argon2');
      expect(text).not.toMatch(/params:/);
    }
  });

  it('answers a bogus invite code the same whether or not the e-mail address has an account', async () => {
    const body = (email: string) => ({
      email,
      first_name: 'Eve',
      last_name: 'Numerate',
      password: PASSWORD,
      invite_code: 'NOSUCHCODE2',
      token: null,
    });
    const taken = await new ApiClient(stack.baseUrl).request('POST', '/v1/auth/register', body('user@seatlink.test'));
    const free = await new ApiClient(stack.baseUrl).request('POST', '/v1/auth/register', body('nobody@example.com'));
    expect(taken.status).toBe(400);
    expect(taken.body).toEqual(free.body);
  });

  it('answers forgot-password and resend-verification the same for a known and an unknown address', async () => {
    for (const path of ['/v1/forgot-password', '/v1/auth/resend-verification']) {
      const known = await new ApiClient(stack.baseUrl).request('POST', path, { email: 'user@seatlink.test' });
      const unknown = await new ApiClient(stack.baseUrl).request('POST', path, { email: 'ghost@example.com' });
      expect(known.status).toBe(200);
      expect({ status: unknown.status, body: unknown.body }).toEqual({ status: known.status, body: known.body });
    }
  });
});
