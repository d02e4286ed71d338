import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InviteCode, User } from '@seatlink/contracts';
import { ApiClient, startTestStack, type TestStack } from '../../testing/test-app.js';

const DASHBOARD = 'http://localhost:3000';
const EVIL = 'http://evil.example';
const tomorrow = () => new Date(Date.now() + 36 * 3600_000).toISOString().slice(0, 10);

describe('state-changing calls from a foreign Origin are refused; the dashboard origin works; CORS answers', () => {
  let stack: TestStack;
  let admin: ApiClient;
  let user: ApiClient;
  let userId: string;

  beforeAll(async () => {
    stack = await startTestStack();
    admin = new ApiClient(stack.baseUrl);
    user = new ApiClient(stack.baseUrl);
    expect((await admin.login('admin@seatlink.test', 'Admin123!')).status).toBe(200);
    userId = ((await user.login('user@seatlink.test', 'User1234!')).body.user as User).id;
  });
  afterAll(async () => stack?.close());

  const balance = async () => (await user.request('GET', '/v1/me')).body.balance as number;
  const invites = async () => (await admin.request('GET', '/v1/admin/invites')).body.invite_codes as InviteCode[];
  const newInvite = async () =>
    (await admin.request('POST', '/v1/admin/invites', { max_uses: 5, expires_at: tomorrow() })).body
      .invite_code as InviteCode;

  function expectRefused(res: { status: number; body: { message?: string } }) {
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('Cross-origin request refused');
  }

  it.each([EVIL, 'null', `${DASHBOARD}.evil.example`, 'http://localhost:30001', 'https://localhost:3000'])(
    'refuses PUT credits from Origin %s with 403, and the balance stays',
    async (origin) => {
      const before = await balance();
      const res = await admin.request(
        'PUT',
        `/v1/admin/users/${userId}/credits`,
        { credits: before + 99, reason: 'Test' },
        {
          headers: { origin },
        },
      );
      expectRefused(res);
      expect(await balance()).toBe(before);
    },
  );

  it('refuses POST /v1/admin/invites from a foreign Origin, and no invite is made', async () => {
    const before = (await invites()).length;
    expectRefused(
      await admin.request(
        'POST',
        '/v1/admin/invites',
        { max_uses: 5, expires_at: tomorrow() },
        {
          headers: { origin: EVIL },
        },
      ),
    );
    expect((await invites()).length).toBe(before);
  });

  it('refuses disabling and deleting an invite from a foreign Origin, and the invite stays as it was', async () => {
    const invite = await newInvite();
    expectRefused(
      await admin.request('POST', `/v1/admin/invites/${invite.code}/disable`, undefined, {
        headers: { origin: EVIL },
      }),
    );
    expectRefused(
      await admin.request('DELETE', `/v1/admin/invites/${invite.id}`, undefined, { headers: { origin: EVIL } }),
    );
    expect((await invites()).find((c) => c.id === invite.id)?.enabled).toBe(true);
  });

  it('refuses toggle-ban from a foreign Origin, and the user is not banned', async () => {
    expectRefused(
      await admin.request('POST', `/v1/admin/users/${userId}/toggle-ban`, undefined, {
        headers: { origin: EVIL },
      }),
    );
    expect((await user.request('GET', '/v1/me')).status).toBe(200);
  });

  it('refuses a sign-in from a foreign Origin (login CSRF) without setting a cookie', async () => {
    const visitor = new ApiClient(stack.baseUrl);
    const res = await visitor.request(
      'POST',
      '/v1/auth',
      { email: 'user@seatlink.test', password: 'User1234!' },
      {
        headers: { origin: EVIL },
      },
    );
    expectRefused(res);
    expect(res.setCookie).toEqual([]);
  });

  it('refuses a logout from a foreign Origin, and the session lives on', async () => {
    const client = new ApiClient(stack.baseUrl);
    await client.login('user@seatlink.test', 'User1234!');
    expectRefused(await client.request('POST', '/v1/logout', undefined, { headers: { origin: EVIL } }));
    expect((await client.request('GET', '/v1/me')).status).toBe(200);
  });

  it('refuses a public POST (waitlist) from a foreign Origin', async () => {
    const body = { email: 'csrf@example.com', first_name: 'C', last_name: 'S', token: null };
    expectRefused(
      await new ApiClient(stack.baseUrl).request('POST', '/v1/waitlist', body, { headers: { origin: EVIL } }),
    );
  });

  it('accepts the same calls from the dashboard origin', async () => {
    const headers = { origin: DASHBOARD };
    const set = await admin.request(
      'PUT',
      `/v1/admin/users/${userId}/credits`,
      { credits: 123, reason: 'Test' },
      { headers },
    );
    expect(set.status).toBe(200);
    expect(await balance()).toBe(123);
    const created = await admin.request(
      'POST',
      '/v1/admin/invites',
      { max_uses: 5, expires_at: tomorrow() },
      {
        headers,
      },
    );
    expect(created.status).toBe(201);
    const invite = created.body.invite_code as InviteCode;
    expect(
      (await admin.request('POST', `/v1/admin/invites/${invite.code}/disable`, undefined, { headers })).status,
    ).toBe(200);
    expect((await admin.request('DELETE', `/v1/admin/invites/${invite.id}`, undefined, { headers })).status).toBe(200);
    expect((await invites()).find((c) => c.id === invite.id)).toBeUndefined();
    const visitor = new ApiClient(stack.baseUrl);
    expect(
      (await visitor.request('POST', '/v1/auth', { email: 'user@seatlink.test', password: 'User1234!' }, { headers }))
        .status,
    ).toBe(200);
    expect((await visitor.request('POST', '/v1/logout', undefined, { headers })).status).toBe(200);
  });

  it("accepts a state-changing call from the API's own origin", async () => {
    const res = await admin.request(
      'PUT',
      `/v1/admin/users/${userId}/credits`,
      { credits: 124, reason: 'Test' },
      {
        headers: { origin: stack.baseUrl },
      },
    );
    expect(res.status).toBe(200);
    expect(await balance()).toBe(124);
  });

  it('answers a GET with a foreign Origin, with no Access-Control-Allow-Origin for that origin', async () => {
    const res = await fetch(`${stack.baseUrl}/v1/me`, { headers: { cookie: user.sessionCookie, origin: EVIL } });
    expect(res.status).toBe(200);
    const allowed = res.headers.get('access-control-allow-origin');
    expect(allowed).not.toBe(EVIL);
    expect(allowed).not.toBe('*');
  });

  it('answers a GET from the dashboard origin with Access-Control-Allow-Origin for it and credentials', async () => {
    const res = await fetch(`${stack.baseUrl}/v1/me`, { headers: { cookie: user.sessionCookie, origin: DASHBOARD } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(DASHBOARD);
    expect(res.headers.get('access-control-allow-credentials')).toBe('true');
  });

  // VITE_API_URL lets the dashboard call an API on another origin; then its PUT and DELETE calls need a preflight.
  it.each([
    ['PUT', '/v1/admin/users/{id}/credits'],
    ['DELETE', '/v1/admin/invites/{id}'],
    ['POST', '/v1/admin/users/{id}/toggle-ban'],
  ])(
    'answers a preflight for %s %s from the dashboard origin: origin, credentials and method allowed',
    async (method, path) => {
      const res = await fetch(stack.baseUrl + path.replace('{id}', userId), {
        method: 'OPTIONS',
        headers: {
          origin: DASHBOARD,
          'access-control-request-method': method,
          'access-control-request-headers': 'content-type',
        },
      });
      expect(res.status).toBeGreaterThanOrEqual(200);
      expect(res.status).toBeLessThan(300);
      expect(res.headers.get('access-control-allow-origin')).toBe(DASHBOARD);
      expect(res.headers.get('access-control-allow-credentials')).toBe('true');
      const methods = (res.headers.get('access-control-allow-methods') ?? '').split(/\s*,\s*/);
      expect(methods).toContain(method);
    },
  );

  it('answers a preflight from a foreign origin without allowing that origin', async () => {
    const res = await fetch(`${stack.baseUrl}/v1/admin/users/${userId}/credits`, {
      method: 'OPTIONS',
      headers: { origin: EVIL, 'access-control-request-method': 'PUT' },
    });
    expect(res.status).toBeLessThan(500);
    const allowed = res.headers.get('access-control-allow-origin');
    expect(allowed).not.toBe(EVIL);
    expect(allowed).not.toBe('*');
  });
});
