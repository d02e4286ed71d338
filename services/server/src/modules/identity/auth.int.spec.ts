import { CommandBus } from '@nestjs/cqrs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '@seatlink/contracts';
import { ReadModelWaiter } from '../../infra/subscriptions/read-model-waiter.js';
import { ApiClient, startTestStack, type TestStack } from '../../testing/test-app.js';
import { RegisterUserCommand } from './register-user.command.js';

describe('POST /v1/auth, GET /v1/me, GET /v1/session, POST /v1/logout', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ redis: false });
  });
  afterAll(async () => stack?.close());

  it('signs in with an HttpOnly SameSite=Lax session cookie and answers the user of docs/reference.md#user', async () => {
    const client = new ApiClient(stack.baseUrl);
    const res = await client.login('USER@seatlink.test', 'User1234!');
    expect(res.status).toBe(200);
    const cookie = res.setCookie.find((c) => c.startsWith('seatlink_session='))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Path=\//);
    // At least 128 bits of randomness: 32 bytes base64url.
    expect(client.sessionCookie.split('=')[1]!.length).toBeGreaterThanOrEqual(43);
    const user = res.body.user as User;
    expect(Object.keys(user).sort()).toEqual(
      [
        'id',
        'email',
        'email_verified',
        'is_admin',
        'is_banned',
        'created_at',
        'last_logged_in_at',
        'balance',
        'distribution_cost',
        'first_name',
        'last_name',
      ].sort(),
    );
    expect(user).toMatchObject({
      email: 'user@seatlink.test',
      is_admin: false,
      is_banned: false,
      email_verified: true,
      balance: 50,
      distribution_cost: 5,
      first_name: 'Uma',
    });
    expect(user.last_logged_in_at).not.toBeNull();
    const me = await client.request('GET', '/v1/me');
    expect(me.status).toBe(200);
    expect(me.body).toEqual(user);
  });

  it('gives the same answer for an unknown e-mail and a wrong password', async () => {
    const wrong = await new ApiClient(stack.baseUrl).login('user@seatlink.test', 'nope');
    const unknown = await new ApiClient(stack.baseUrl).login('nobody@seatlink.test', 'User1234!');
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ message: 'Invalid email or password', code: 'INVALID_CREDENTIALS' });
      expect(res.setCookie).toEqual([]);
    }
  });

  it('refuses an unverified e-mail with EMAIL_NOT_VERIFIED', async () => {
    const bus = stack.app.get(CommandBus);
    const { position } = await bus.execute(
      new RegisterUserCommand({
        email: 'pending@seatlink.test',
        password: 'Pending1!',
        firstName: 'Pat',
        lastName: 'Pending',
        isAdmin: false,
        emailVerified: false,
      }),
    );
    await stack.app.get(ReadModelWaiter).waitFor(position, ['UserRegistered']);
    const res = await new ApiClient(stack.baseUrl).login('pending@seatlink.test', 'Pending1!');
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('EMAIL_NOT_VERIFIED');
    expect(res.body.message).toBeTruthy();
  });

  it.each([
    ['no body fields', {}],
    ['a malformed e-mail', { email: 'not-an-email', password: 'x' }],
    ['a password of the wrong type', { email: 'user@seatlink.test', password: 12345678 }],
    ['an oversized password', { email: 'user@seatlink.test', password: 'x'.repeat(300) }],
  ])('refuses %s with 400 and a message', async (_label, body) => {
    const res = await new ApiClient(stack.baseUrl).request('POST', '/v1/auth', body);
    expect(res.status).toBe(400);
    expect(typeof res.body.message).toBe('string');
    expect(res.body.message!.length).toBeGreaterThan(0);
  });

  it('answers GET /v1/me without a session with 401', async () => {
    const res = await new ApiClient(stack.baseUrl).request('GET', '/v1/me');
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('Not authenticated');
  });

  it('answers GET /v1/session 200 always: the user while signed in, null for a visitor and after logout', async () => {
    const visitor = await new ApiClient(stack.baseUrl).request('GET', '/v1/session');
    expect(visitor.status).toBe(200);
    expect(visitor.body).toEqual({ user: null });
    expect(visitor.setCookie).toEqual([]);

    const client = new ApiClient(stack.baseUrl);
    const login = await client.login('user@seatlink.test', 'User1234!');
    const signedIn = await client.request('GET', '/v1/session');
    expect(signedIn.status).toBe(200);
    expect(signedIn.body).toEqual({ user: (await client.request('GET', '/v1/me')).body });
    expect((signedIn.body.user as User).email).toBe((login.body.user as User).email);

    const ended = client.sessionCookie;
    await client.request('POST', '/v1/logout');
    const after = await fetch(`${stack.baseUrl}/v1/session`, { headers: { cookie: ended } });
    expect(after.status).toBe(200);
    expect(await after.json()).toEqual({ user: null });
    const forged = await fetch(`${stack.baseUrl}/v1/session`, { headers: { cookie: 'seatlink_session=forged' } });
    expect(await forged.json()).toEqual({ user: null });
  });

  it('ends the session at logout: the old cookie no longer works', async () => {
    const client = new ApiClient(stack.baseUrl);
    await client.login('user@seatlink.test', 'User1234!');
    const stolen = client.sessionCookie;
    const out = await client.request('POST', '/v1/logout');
    expect(out.status).toBe(200);
    expect(out.setCookie.some((c) => c.startsWith('seatlink_session=;'))).toBe(true);
    const replay = await fetch(`${stack.baseUrl}/v1/me`, { headers: { cookie: stolen } });
    expect(replay.status).toBe(401);
  });

  it('issues a new token at each login', async () => {
    const a = new ApiClient(stack.baseUrl);
    const b = new ApiClient(stack.baseUrl);
    await a.login('user@seatlink.test', 'User1234!');
    await b.login('user@seatlink.test', 'User1234!');
    expect(a.sessionCookie).not.toBe(b.sessionCookie);
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const res = await new ApiClient(stack.baseUrl).request('GET', '/v1/nothing-here');
    expect(res.status).toBe(404);
    expect(typeof res.body.message).toBe('string');
  });
});
