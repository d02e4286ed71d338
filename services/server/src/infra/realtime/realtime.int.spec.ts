import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { INestApplicationContext } from '@nestjs/common';
import { io, type Socket } from 'socket.io-client';
import { SOCKET_PATH, type User } from '@seatlink/contracts';
import { seed } from '../../seed.js';
import { ApiClient, startTestStack, startTestWorker, type TestStack } from '../../testing/test-app.js';
import { testEnv } from '../../testing/test-database.js';

const sockets: Socket[] = [];

function connect(baseUrl: string, cookie: string): Socket {
  const socket = io(baseUrl, {
    path: SOCKET_PATH,
    transports: ['websocket'],
    extraHeaders: cookie ? { cookie } : {},
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

  it("pushes a user's new balance to that user's socket, and not to another user's", async () => {
    const { admin, user, userId } = await signIn(stack.baseUrl);
    const userSocket = connect(stack.baseUrl, user.sessionCookie);
    const adminSocket = connect(stack.baseUrl, admin.sessionCookie);
    await Promise.all([connected(userSocket), connected(adminSocket)]);
    const adminGotBalance: unknown[] = [];
    adminSocket.on('balance.updated', (p) => adminGotBalance.push(p));
    const adminSawUser = new Promise((resolve) => adminSocket.once('admin.user.updated', resolve));
    const received = nextBalance(userSocket);
    await admin.request('PUT', `/v1/admin/users/${userId}/credits`, { credits: 321 });
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
    const res = await admin.request('PUT', `/v1/admin/users/${userId}/credits`, { credits: 77 });
    expect(res.status).toBe(200);
    expect((res.body.user as User).balance).toBe(77);
    expect(await received).toEqual({ user_id: userId, balance: 77 });
  });
});
