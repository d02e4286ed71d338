import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { INestApplicationContext } from '@nestjs/common';
import { io, type Socket } from 'socket.io-client';
import { SOCKET_PATH, type User } from '@seatlink/contracts';
import { seed } from '../../seed.js';
import { hashToken } from '../../modules/identity/sessions.service.js';
import { DATABASE } from '../db/database.module.js';
import type { Database } from '../db/database.js';
import { ApiClient, startTestStack, startTestWorker, type TestStack } from '../../testing/test-app.js';
import { liveUpdateRedis } from './live-update-redis.js';
import { hasRedisServer, type PrivateRedis, startPrivateRedis } from '../../testing/private-redis.js';
import { testEnv } from '../../testing/test-database.js';

const sockets: Socket[] = [];

function connect(baseUrl: string, cookie: string, origin?: string): Socket {
  const socket = io(baseUrl, {
    path: SOCKET_PATH,
    transports: ['websocket'],
    extraHeaders: { ...(cookie ? { cookie } : {}), ...(origin ? { origin } : {}) },
    reconnection: false,
  });
  sockets.push(socket);
  return socket;
}

const connected = (socket: Socket) =>
  new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', (err) => reject(err));
  });

/** Resolves with the reason of 'session.ended' and once the server has closed the socket. */
const ended = (socket: Socket) =>
  new Promise<string>((resolve) => {
    let reason = '';
    socket.once('session.ended', (p: { reason: string }) => (reason = p.reason));
    socket.once('disconnect', () => resolve(reason));
  });

const nextBalance = (socket: Socket) =>
  new Promise<{ user_id: string; balance: number }>((resolve) => socket.once('balance.updated', resolve));

afterEach(() => {
  for (const s of sockets.splice(0)) s.disconnect();
});

async function signIn(baseUrl: string) {
  const admin = new ApiClient(baseUrl);
  const user = new ApiClient(baseUrl);
  await admin.login('admin@seatlink.test', 'Admin123!');
  const userId = ((await user.login('user@seatlink.test', 'User1234!')).body.user as User).id;
  return { admin, user, userId };
}

describe('live updates over socket.io (one process)', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(async () => stack?.close());

  it('refuses a handshake without a live session', async () => {
    await expect(connected(connect(stack.baseUrl, ''))).rejects.toThrow(/Not authenticated/);
    await expect(connected(connect(stack.baseUrl, 'seatlink_session=forged'))).rejects.toThrow(/Not authenticated/);
  });

  it("accepts the dashboard's origin and refuses any other", async () => {
    const { user } = await signIn(stack.baseUrl);
    await connected(connect(stack.baseUrl, user.sessionCookie, 'http://localhost:3000'));
    await expect(connected(connect(stack.baseUrl, user.sessionCookie, 'https://evil.example'))).rejects.toThrow();
  });

  it("closes a session's sockets at logout, and only that session's", async () => {
    const first = new ApiClient(stack.baseUrl);
    const second = new ApiClient(stack.baseUrl);
    await first.login('user@seatlink.test', 'User1234!');
    await second.login('user@seatlink.test', 'User1234!');
    const a = connect(stack.baseUrl, first.sessionCookie);
    const b = connect(stack.baseUrl, second.sessionCookie);
    await Promise.all([connected(a), connected(b)]);
    const closed = ended(a);
    await first.request('POST', '/v1/logout');
    expect(await closed).toBe('logout');
    expect(b.connected).toBe(true);
  });

  it('closes every socket of a user whose password was reset, and of a banned user', async () => {
    const admin = new ApiClient(stack.baseUrl);
    await admin.login('admin@seatlink.test', 'Admin123!');
    const user = new ApiClient(stack.baseUrl);
    const userId = ((await user.login('user@seatlink.test', 'User1234!')).body.user as User).id;
    const socket = connect(stack.baseUrl, user.sessionCookie);
    await connected(socket);
    const closed = ended(socket);
    await admin.request('POST', `/v1/admin/users/${userId}/toggle-ban`);
    expect(await closed).toBe('banned');
    await admin.request('POST', `/v1/admin/users/${userId}/toggle-ban`);
  });

  it("pushes a user's new balance to that user's socket, and not to another user's", async () => {
    const { admin, user, userId } = await signIn(stack.baseUrl);
    const userSocket = connect(stack.baseUrl, user.sessionCookie);
    const adminSocket = connect(stack.baseUrl, admin.sessionCookie);
    await Promise.all([connected(userSocket), connected(adminSocket)]);
    const adminGotBalance: unknown[] = [];
    adminSocket.on('balance.updated', (p) => adminGotBalance.push(p));
    const adminSawUser = new Promise((resolve) => adminSocket.once('admin.user.updated', resolve));
    const received = nextBalance(userSocket);
    await admin.request('PUT', `/v1/admin/users/${userId}/credits`, { credits: 321, reason: 'Test' });
    expect(await received).toEqual({ user_id: userId, balance: 321 });
    expect(await adminSawUser).toEqual({ user_id: userId });
    expect(adminGotBalance).toEqual([]);
  });
});

// A change projected in the worker process reaches a browser connected to an API process, through Redis.
describe.skipIf(!testEnv.redisUrl)('live updates across processes (API + worker, Redis adapter and emitter)', () => {
  let api: TestStack;
  let worker: INestApplicationContext;
  beforeAll(async () => {
    api = await startTestStack({ role: 'api' });
    worker = await startTestWorker(api.config);
    await seed(worker);
  });
  afterAll(async () => {
    await worker?.close();
    await api?.close();
  });

  it('delivers the balance projected by the worker to the socket on the API process', async () => {
    const { admin, user, userId } = await signIn(api.baseUrl);
    const socket = connect(api.baseUrl, user.sessionCookie);
    await connected(socket);
    const received = nextBalance(socket);
    const res = await admin.request('PUT', `/v1/admin/users/${userId}/credits`, { credits: 77, reason: 'Test' });
    expect(res.status).toBe(200);
    expect((res.body.user as User).balance).toBe(77);
    expect(await received).toEqual({ user_id: userId, balance: 77 });
  });
});

describe('sockets of expired sessions', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ env: { SOCKET_SESSION_RECHECK_MS: '200' } });
  });
  afterAll(async () => stack?.close());

  it('closes a socket once its session has expired', async () => {
    const user = new ApiClient(stack.baseUrl);
    await user.login('user@seatlink.test', 'User1234!');
    const socket = connect(stack.baseUrl, user.sessionCookie);
    await connected(socket);
    const closed = ended(socket);
    const database = stack.app.get<Database>(DATABASE);
    const token = user.sessionCookie.split('=')[1]!;
    await database.query(`update sessions set expires_at = now() - interval '1 second' where token_hash = $1`, [
      hashToken(token),
    ]);
    expect(await closed).toBe('expired');
  });
});

// Redis going away must not take the processes down: socket.io's Redis adapter and emitter drop the promise of every
// PUBLISH, and Node ends a process on an unhandled rejection. A Redis server of the test's own is killed and restarted.
describe.runIf(hasRedisServer())('live updates when Redis goes away and comes back (API + worker)', () => {
  let redis: PrivateRedis;
  let api: TestStack;
  let worker: INestApplicationContext;
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);

  beforeAll(async () => {
    process.on('unhandledRejection', onUnhandled);
    redis = await startPrivateRedis();
    api = await startTestStack({ role: 'api', env: { REDIS_URL: redis.url } });
    worker = await startTestWorker(api.config);
    await seed(worker);
  });
  afterAll(async () => {
    process.off('unhandledRejection', onUnhandled);
    await worker?.close();
    await api?.close();
    await redis?.kill();
  });

  it('keeps answering and signing in while Redis is down, and pushes again once it is back', async () => {
    const { admin, user, userId } = await signIn(api.baseUrl);
    const socket = connect(api.baseUrl, user.sessionCookie);
    await connected(socket);
    const first = nextBalance(socket);
    await admin.request('PUT', `/v1/admin/users/${userId}/credits`, { credits: 11, reason: 'Test' });
    expect(await first).toEqual({ user_id: userId, balance: 11 });

    await redis.kill();
    const missed: unknown[] = [];
    socket.on('balance.updated', (p) => missed.push(p));
    // The command and its read model live in PostgreSQL: the answer comes, only its live update is lost.
    const res = await admin.request('PUT', `/v1/admin/users/${userId}/credits`, { credits: 12, reason: 'Test' });
    expect(res.status).toBe(200);
    expect((res.body.user as User).balance).toBe(12);
    // Sign-in is throttled in Redis; without it the count goes on in memory.
    const again = new ApiClient(api.baseUrl);
    expect((await again.login('user@seatlink.test', 'User1234!')).status).toBe(200);
    expect(unhandled).toEqual([]);

    await redis.start();
    await expect
      .poll(
        async () => {
          const next = nextBalance(socket);
          await admin.request('PUT', `/v1/admin/users/${userId}/credits`, { credits: 13, reason: 'Test' });
          return Promise.race([next, new Promise((r) => setTimeout(() => r(null), 1000))]);
        },
        { timeout: 20_000, interval: 200 },
      )
      .toEqual({ user_id: userId, balance: 13 });
    // An update published while Redis was away is dropped (a publish is bounded like every Redis call), never late and
    // out of order; the page is told to read again instead (live.restored, below).
    const balances = missed.map((p) => (p as { balance: number }).balance);
    expect(balances.filter((b) => b === 13).length).toBeGreaterThan(0);
    expect(balances.indexOf(12)).toBeLessThanOrEqual(balances.indexOf(13));
    expect(unhandled).toEqual([]);
  }, 40_000);

  it('reports a publish that fails (a closed client) instead of leaving its rejection unhandled', async () => {
    const client = liveUpdateRedis(redis.url, 'test');
    client.disconnect();
    const sent = client.publish('seatlink-test', 'x');
    await expect(sent).rejects.toThrow(/closed|isn't writeable/i);
    // Dropped by its caller, as socket.io's adapter does: still no unhandled rejection.
    void client.publish('seatlink-test', 'y');
    await new Promise((r) => setTimeout(r, 100));
    expect(unhandled).toEqual([]);
  });
});
