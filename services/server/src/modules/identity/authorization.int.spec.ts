import { randomUUID } from 'node:crypto';
import { CommandBus } from '@nestjs/cqrs';
import { sql } from 'drizzle-orm';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ClientToServerEvents,
  type InviteCode,
  type ServerToClientEvents,
  SOCKET_PATH,
  type User,
} from '@seatlink/contracts';
import { type Database, queryRows } from '../../infra/db/database.js';
import { DATABASE } from '../../infra/db/database.module.js';
import { ReadModelWaiter } from '../../infra/subscriptions/read-model-waiter.js';
import { ApiClient, startTestStack, type TestStack } from '../../testing/test-app.js';
import { TestSmtpServer } from '../../testing/test-smtp.js';
import { AuthTokensService } from './auth-tokens.service.js';
import { RegisterUserCommand } from './register-user.command.js';

type Caller = 'visitor' | 'user' | 'banned' | 'admin';
type Access = 'public' | 'user' | 'admin';
const CALLERS: Caller[] = ['visitor', 'user', 'banned', 'admin'];

/** What each caller gets from a route of each access level, when the allowed callers get `ok`. */
function expectedStatus(access: Access, caller: Caller, ok: number): number {
  if (access === 'public') return ok;
  if (caller === 'visitor' || caller === 'banned') return 401; // the banned user's session ended with the ban
  if (access === 'admin' && caller === 'user') return 403;
  return ok;
}

interface Answer {
  status: number;
  body: Record<string, unknown> & { message?: unknown; code?: unknown };
}

const tomorrow = () => new Date(Date.now() + 36 * 3600_000).toISOString().slice(0, 10);
const STRONG = 'Str0ng!pass';
const BANNED_EMAIL = 'banned@example.com';

describe('who may call what: every route for a visitor, a user, a banned user and an admin', () => {
  let stack: TestStack;
  let smtp: TestSmtpServer;
  let database: Database;
  let admin: ApiClient;
  let user: ApiClient;
  let userId: string;
  let adminId: string;
  let bannedId: string;
  /** The user whom the matrix's admin toggle-ban call bans. */
  let banTarget: string;
  let invite: InviteCode;
  let toDisable: InviteCode;
  let toDelete: InviteCode;
  const cookies: Record<Caller, string> = { visitor: '', user: '', banned: '', admin: '' };
  let socket: Socket<ServerToClientEvents, ClientToServerEvents>;
  /** What the banned user's open socket saw around the ban, in order. */
  let socketSaw: Promise<string[]>;
  let meWhenTold: Promise<number> | undefined;

  /** A call with exactly this cookie (or none); the answer's cookies are not kept, so no caller changes identity. */
  async function send(cookie: string, method: string, path: string, body?: unknown): Promise<Answer> {
    const headers: Record<string, string> = {};
    if (cookie) headers.cookie = cookie;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(stack.baseUrl + path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = text;
    }
    return { status: res.status, body: (parsed ?? {}) as Answer['body'] };
  }

  /** A user made straight through the command bus (faster than registration), for calls that use one up. */
  async function freshUser(emailVerified: boolean): Promise<string> {
    const { userId: id, position } = await stack.app.get(CommandBus).execute(
      new RegisterUserCommand({
        email: `u-${randomUUID()}@example.com`,
        password: STRONG,
        firstName: 'Tess',
        lastName: 'Thrower',
        isAdmin: false,
        emailVerified,
      }),
    );
    await stack.app.get(ReadModelWaiter).waitFor(position, ['UserRegistered']);
    return id;
  }

  async function newInvite(maxUses: number): Promise<InviteCode> {
    const res = await admin.request('POST', '/v1/admin/invites', { max_uses: maxUses, expires_at: tomorrow() });
    expect(res.status).toBe(201);
    return res.body.invite_code as InviteCode;
  }

  const eventCount = async () =>
    (await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from events`))[0]!.n;

  beforeAll(async () => {
    smtp = new TestSmtpServer();
    stack = await startTestStack({ env: { SMTP_URL: await smtp.start() } });
    database = stack.app.get<Database>(DATABASE);
    admin = new ApiClient(stack.baseUrl);
    user = new ApiClient(stack.baseUrl);
    adminId = ((await admin.login('admin@seatlink.test', 'Admin123!')).body.user as User).id;
    userId = ((await user.login('user@seatlink.test', 'User1234!')).body.user as User).id;
    cookies.admin = admin.sessionCookie;
    cookies.user = user.sessionCookie;
    invite = await newInvite(100);
    toDisable = await newInvite(5);
    toDelete = await newInvite(5);
    banTarget = await freshUser(true);

    // The banned user: registered with an invite, verified through the e-mailed link, signed in, with a socket open.
    const banned = new ApiClient(stack.baseUrl);
    const registered = await banned.request('POST', '/v1/auth/register', {
      email: BANNED_EMAIL,
      first_name: 'Bo',
      last_name: 'Banned',
      password: STRONG,
      invite_code: invite.code,
      token: null,
    });
    expect(registered.status).toBe(201);
    const token = TestSmtpServer.token(await smtp.waitFor(BANNED_EMAIL, /Verify your email/));
    expect((await banned.request('POST', '/v1/auth/verify-email', { token })).status).toBe(200);
    const login = await banned.login(BANNED_EMAIL, STRONG);
    expect(login.status).toBe(200);
    bannedId = (login.body.user as User).id;
    cookies.banned = banned.sessionCookie;
    expect((await send(cookies.banned, 'GET', '/v1/me')).status).toBe(200);

    socket = io(stack.baseUrl, {
      path: SOCKET_PATH,
      transports: ['websocket'],
      extraHeaders: { cookie: cookies.banned },
      reconnection: false,
    });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    socketSaw = new Promise<string[]>((resolve) => {
      const seen: string[] = [];
      socket.on('session.ended', (p) => {
        seen.push(`session.ended:${p.reason}`);
        // What the page then does: ask who is signed in.
        meWhenTold ??= send(cookies.banned, 'GET', '/v1/me').then((r) => r.status);
      });
      socket.on('disconnect', (reason) => {
        seen.push(`disconnect:${reason}`);
        resolve(seen);
      });
      setTimeout(() => resolve(seen), 5000);
    });

    // Ending the banned user's sessions takes a moment here (as under load): the socket must not hear of the end first.
    await database.query(`create function test_slow_end() returns trigger language plpgsql
                          as $$ begin perform pg_sleep(0.3); return old; end $$`);
    await database.query(`create trigger test_slow_end before delete on sessions for each row
                          when (old.user_id = '${bannedId}') execute function test_slow_end()`);
    const ban = await admin.request('POST', `/v1/admin/users/${bannedId}/toggle-ban`);
    expect(ban.status).toBe(200);
    expect(ban.body.message).toBe('User has been banned');
    expect((ban.body.user as User).is_banned).toBe(true);
  });

  afterAll(async () => {
    socket?.disconnect();
    await stack?.close();
    await smtp?.stop();
  });

  it("sends 'session.ended' to the banned user's open socket, then disconnects it", async () => {
    expect(await socketSaw).toEqual(['session.ended:banned', 'disconnect:io server disconnect']);
    // Told once the session was gone: the page's question is already answered "nobody".
    expect(await meWhenTold).toBe(401);
    expect(socket.connected).toBe(false);
    // The old cookie no longer opens a socket either.
    const again = io(stack.baseUrl, {
      path: SOCKET_PATH,
      transports: ['websocket'],
      extraHeaders: { cookie: cookies.banned },
      reconnection: false,
    });
    try {
      await expect(
        new Promise((resolve, reject) => {
          again.once('connect', () => resolve('connected'));
          again.once('connect_error', reject);
        }),
      ).rejects.toThrow(/Not authenticated/);
    } finally {
      again.disconnect();
    }
  });

  it('refuses the banned user a new sign-in with 403 ACCOUNT_BANNED and sets no cookie', async () => {
    const res = await new ApiClient(stack.baseUrl).login(BANNED_EMAIL, STRONG);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('ACCOUNT_BANNED');
    expect(res.body.message).toBe('Your account has been banned');
    expect(res.setCookie).toEqual([]);
  });

  /**
   * Every route, and how an allowed caller calls it: `ok` is what an allowed caller gets. Routes that use something
   * up (a token, a session, an invite) make a fresh one per call. Admin rows run the refused callers first, so the
   * admin's own call still finds what it acts on.
   */
  const routes: Array<{
    route: string;
    access: Access;
    ok: number;
    call: (cookie: string, caller: Caller) => Promise<Answer>;
  }> = [
    { route: 'GET /v1/me', access: 'user', ok: 200, call: (c) => send(c, 'GET', '/v1/me') },
    {
      route: 'POST /v1/logout',
      access: 'public',
      ok: 200,
      // A session of the caller's own kind that may end here (the matrix keeps using the callers' main sessions).
      call: async (c, caller) => {
        let cookie = c;
        if (caller === 'user' || caller === 'admin') {
          const who = new ApiClient(stack.baseUrl);
          if (caller === 'user') await who.login('user@seatlink.test', 'User1234!');
          else await who.login('admin@seatlink.test', 'Admin123!');
          cookie = who.sessionCookie;
        }
        const res = await send(cookie, 'POST', '/v1/logout');
        if (cookie) expect((await send(cookie, 'GET', '/v1/me')).status).toBe(401);
        return res;
      },
    },
    { route: 'GET /v1/config', access: 'public', ok: 200, call: (c) => send(c, 'GET', '/v1/config') },
    {
      route: 'GET /v1/session',
      access: 'public',
      ok: 200,
      // Who is signed in: the banned user is nobody (the ban ended their sessions), as is a visitor.
      call: async (c, caller) => {
        const res = await send(c, 'GET', '/v1/session');
        const user = res.body.user as User | null;
        expect(user?.email ?? null).toBe(
          caller === 'user' ? 'user@seatlink.test' : caller === 'admin' ? 'admin@seatlink.test' : null,
        );
        return res;
      },
    },
    {
      route: 'POST /v1/auth',
      access: 'public',
      ok: 200,
      call: (c) => send(c, 'POST', '/v1/auth', { email: 'user@seatlink.test', password: 'User1234!', token: null }),
    },
    {
      route: 'POST /v1/auth/register',
      access: 'public',
      ok: 201,
      call: (c, caller) =>
        send(c, 'POST', '/v1/auth/register', {
          email: `reg-${caller}@example.com`,
          first_name: 'Rae',
          last_name: 'Reg',
          password: STRONG,
          invite_code: invite.code,
          token: null,
        }),
    },
    {
      route: 'POST /v1/auth/resend-verification',
      access: 'public',
      ok: 200,
      call: (c, caller) => send(c, 'POST', '/v1/auth/resend-verification', { email: `reg-${caller}@example.com` }),
    },
    {
      route: 'POST /v1/auth/verify-email',
      access: 'public',
      ok: 200,
      call: async (c) => {
        const token = await stack.app.get(AuthTokensService).issue(await freshUser(false), 'verify_email');
        return send(c, 'POST', '/v1/auth/verify-email', { token });
      },
    },
    {
      route: 'POST /v1/auth/sign-in-link',
      access: 'public',
      ok: 200,
      call: async (c) => {
        const token = await stack.app.get(AuthTokensService).issue(await freshUser(true), 'sign_in');
        return send(c, 'POST', '/v1/auth/sign-in-link', { token });
      },
    },
    {
      route: 'POST /v1/forgot-password',
      access: 'public',
      ok: 200,
      call: (c) => send(c, 'POST', '/v1/forgot-password', { email: 'nobody@example.com' }),
    },
    {
      route: 'POST /v1/auth/validate-reset-token',
      access: 'public',
      ok: 200,
      call: async (c) => {
        const token = await stack.app.get(AuthTokensService).issue(await freshUser(true), 'reset_password');
        return send(c, 'POST', '/v1/auth/validate-reset-token', { token });
      },
    },
    {
      route: 'POST /v1/auth/reset-password',
      access: 'public',
      ok: 200,
      call: async (c) => {
        const token = await stack.app.get(AuthTokensService).issue(await freshUser(true), 'reset_password');
        return send(c, 'POST', '/v1/auth/reset-password', { token, password: 'N3w!Password' });
      },
    },
    {
      route: 'POST /v1/waitlist',
      access: 'public',
      ok: 200,
      call: (c, caller) =>
        send(c, 'POST', '/v1/waitlist', {
          email: `wait-${caller}@example.com`,
          first_name: 'Wyn',
          last_name: 'Wait',
          token: null,
        }),
    },
    { route: 'GET /health', access: 'public', ok: 200, call: (c) => send(c, 'GET', '/health') },
    { route: 'GET /v1/admin/users', access: 'admin', ok: 200, call: (c) => send(c, 'GET', '/v1/admin/users') },
    {
      route: 'PUT /v1/admin/users/{id}/credits',
      access: 'admin',
      ok: 200,
      call: (c) => send(c, 'PUT', `/v1/admin/users/${userId}/credits`, { credits: 60, reason: 'Test' }),
    },
    {
      route: 'POST /v1/admin/users/{id}/reset-password',
      access: 'admin',
      ok: 200,
      call: (c) => send(c, 'POST', `/v1/admin/users/${userId}/reset-password`),
    },
    {
      route: 'POST /v1/admin/users/{id}/toggle-ban',
      access: 'admin',
      ok: 200,
      call: (c) => send(c, 'POST', `/v1/admin/users/${banTarget}/toggle-ban`),
    },
    { route: 'GET /v1/admin/invites', access: 'admin', ok: 200, call: (c) => send(c, 'GET', '/v1/admin/invites') },
    {
      route: 'POST /v1/admin/invites',
      access: 'admin',
      ok: 201,
      call: (c) => send(c, 'POST', '/v1/admin/invites', { max_uses: 3, expires_at: tomorrow() }),
    },
    {
      route: 'POST /v1/admin/invites/{code}/disable',
      access: 'admin',
      ok: 200,
      call: (c) => send(c, 'POST', `/v1/admin/invites/${toDisable.code}/disable`),
    },
    {
      route: 'DELETE /v1/admin/invites/{id}',
      access: 'admin',
      ok: 200,
      call: (c) => send(c, 'DELETE', `/v1/admin/invites/${toDelete.id}`),
    },
  ];

  const cases = routes.flatMap((r) =>
    CALLERS.map((caller) => ({ ...r, caller, expected: expectedStatus(r.access, caller, r.ok) })),
  );

  it.each(cases)('$route ($access) as $caller → $expected', async ({ caller, expected, call }) => {
    const eventsBefore = await eventCount();
    const res = await call(cookies[caller], caller);
    expect(res.status).toBe(expected);
    if (expected >= 400) {
      expect(typeof res.body.message).toBe('string');
      expect((res.body.message as string).length).toBeGreaterThan(0);
      expect(res.body.message).toBe(expected === 401 ? 'Not authenticated' : 'Admin access required');
      // A refused call changes nothing.
      expect(await eventCount()).toBe(eventsBefore);
    }
  });

  it('the admin calls of the matrix took effect: invite disabled, invite deleted, credits set, user banned', async () => {
    const users = (await admin.request('GET', '/v1/admin/users?limit=100')).body.users as User[];
    expect(users.find((u) => u.id === banTarget)?.is_banned).toBe(true);
    const codes = (await admin.request('GET', '/v1/admin/invites')).body.invite_codes as InviteCode[];
    expect(codes.find((c) => c.id === toDisable.id)?.enabled).toBe(false);
    expect(codes.find((c) => c.id === toDelete.id)).toBeUndefined();
    expect((await user.request('GET', '/v1/me')).body.balance).toBe(60);
  });

  it('refuses an admin banning themselves with 400, and the admin stays signed in and unbanned', async () => {
    const res = await admin.request('POST', `/v1/admin/users/${adminId}/toggle-ban`);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('You cannot ban yourself');
    const me = await admin.request('GET', '/v1/me');
    expect(me.status).toBe(200);
    expect((me.body as unknown as User).is_banned).toBe(false);
  });

  it('lets the user sign in again once unbanned (the sessions the ban ended stay ended)', async () => {
    const res = await admin.request('POST', `/v1/admin/users/${bannedId}/toggle-ban`);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('User has been unbanned');
    expect((res.body.user as User).is_banned).toBe(false);
    const again = new ApiClient(stack.baseUrl);
    const login = await again.login(BANNED_EMAIL, STRONG);
    expect(login.status).toBe(200);
    expect((login.body.user as User).is_banned).toBe(false);
    expect((await again.request('GET', '/v1/me')).status).toBe(200);
    expect((await send(cookies.banned, 'GET', '/v1/me')).status).toBe(401);
  });

  it('really registered for every caller: each registration got its verification e-mail', async () => {
    for (const caller of CALLERS) {
      const mail = await smtp.waitFor(`reg-${caller}@example.com`, /Verify your email/);
      expect(TestSmtpServer.token(mail)).toBeTruthy();
    }
  });
});
