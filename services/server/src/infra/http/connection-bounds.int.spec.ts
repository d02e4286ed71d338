import net from 'node:net';
import { SOCKET_PATH, type User } from '@seatlink/contracts';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, startTestStack, type TestStack } from '../../testing/test-app.js';
import { loadConfig } from '../config/config.js';

/** Short bounds, so the test sees them act; the product's defaults are longer (config.ts). */
const HEADERS_MS = 1000;
const REQUEST_MS = 2000;
const KEEP_ALIVE_MS = 1000;
/** Past its bound, a connection is cut at the next check (at most a second apart); more for a busy machine. */
const GRACE_MS = 4000;

interface Held {
  /** The server closed the connection before the test gave up on it. */
  closed: boolean;
  /** What the server sent, if anything (a 408 answer). */
  received: string;
  /** Bytes the client had sent when the connection closed. */
  sent: number;
}

/**
 * A slowloris client on a real socket: sends `head`, then one byte of `filler` every `everyMs` for as long as the
 * connection stays open (or `everyMs` null: nothing more at all), and reports whether the server closed it within
 * `giveUpMs`.
 */
function hold(
  port: number,
  head: string,
  options: { everyMs: number | null; giveUpMs: number; filler?: string },
): Promise<Held> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    let sent = 0;
    let timer: NodeJS.Timeout | undefined;
    const finish = (closed: boolean) => {
      clearInterval(timer);
      clearTimeout(giveUp);
      socket.destroy();
      resolve({ closed, received, sent });
    };
    const giveUp = setTimeout(() => finish(false), options.giveUpMs);
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => finish(true));
    socket.on('connect', () => {
      if (head) socket.write(head);
      sent += head.length;
      if (options.everyMs === null) return;
      timer = setInterval(() => {
        if (socket.writable) {
          socket.write(options.filler ?? 'a');
          sent += 1;
        }
      }, options.everyMs);
    });
  });
}

const SLOW_HEADERS = 'GET /health HTTP/1.1\r\nHost: localhost\r\nX-Slow: ';
const SLOW_BODY =
  'POST /v1/auth HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{';

describe('connection bounds: slow and silent clients are cut off, answers and live sockets are not', () => {
  let stack: TestStack;
  let port: number;
  beforeAll(async () => {
    stack = await startTestStack({
      env: {
        HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_MS),
        HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_MS),
        HTTP_KEEP_ALIVE_TIMEOUT_MS: String(KEEP_ALIVE_MS),
      },
    });
    port = Number(new URL(stack.baseUrl).port);
  });
  afterAll(async () => stack?.close());

  it("sets every bound on Node's server, the idle one at its default (above socket.io's 25-second long poll)", () => {
    const server = stack.app.getHttpServer();
    expect(server.headersTimeout).toBe(HEADERS_MS);
    expect(server.requestTimeout).toBe(REQUEST_MS);
    expect(server.keepAliveTimeout).toBe(KEEP_ALIVE_MS);
    expect(server.timeout).toBe(loadConfig({}).HTTP_IDLE_TIMEOUT_MS);
  });

  it('cuts off a client that trickles its headers a byte at a time', async () => {
    const held = await hold(port, SLOW_HEADERS, { everyMs: 100, giveUpMs: HEADERS_MS + GRACE_MS });
    expect(held.closed).toBe(true);
    // Still sending when cut: it was the bound, not the client, that ended it.
    expect(held.sent).toBeGreaterThan(SLOW_HEADERS.length + 3);
    if (held.received) expect(held.received).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('answers 408 to a client that trickles its body a byte at a time, and closes the connection', async () => {
    const held = await hold(port, SLOW_BODY, { everyMs: 100, giveUpMs: REQUEST_MS + GRACE_MS, filler: ' ' });
    expect(held.closed).toBe(true);
    expect(held.sent).toBeGreaterThan(SLOW_BODY.length + 3);
    expect(held.received).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('closes a connection that never sends a request', async () => {
    const held = await hold(port, '', { everyMs: null, giveUpMs: HEADERS_MS + GRACE_MS });
    expect(held.closed).toBe(true);
  });

  it('closes a kept-alive connection when no next request comes', async () => {
    const held = await hold(port, 'GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n', {
      everyMs: null,
      giveUpMs: KEEP_ALIVE_MS + GRACE_MS,
    });
    expect(held.received).toMatch(/^HTTP\/1\.1 (200|503) /);
    expect(held.closed).toBe(true);
  });

  it('cuts off 20 slow clients at once while other requests are answered as usual', async () => {
    const slow = [
      ...Array.from({ length: 10 }, () => hold(port, SLOW_HEADERS, { everyMs: 1000, giveUpMs: REQUEST_MS + GRACE_MS })),
      ...Array.from({ length: 10 }, () =>
        hold(port, SLOW_BODY, { everyMs: 1000, giveUpMs: REQUEST_MS + GRACE_MS, filler: ' ' }),
      ),
    ];
    const client = new ApiClient(stack.baseUrl);
    const login = await client.login('user@seatlink.test', 'User1234!');
    expect(login.status).toBe(200);
    expect((await client.request('GET', '/v1/me')).status).toBe(200);
    const held = await Promise.all(slow);
    expect(held.filter((h) => !h.closed)).toEqual([]);
    // And the server still answers afterwards.
    expect((await client.request('GET', '/v1/me')).status).toBe(200);
  });

  it.each(['websocket', 'polling'] as const)(
    'keeps a socket.io connection (%s) open past every bound, and delivers to it',
    async (transport) => {
      const admin = new ApiClient(stack.baseUrl);
      const user = new ApiClient(stack.baseUrl);
      await admin.login('admin@seatlink.test', 'Admin123!');
      const userId = ((await user.login('user@seatlink.test', 'User1234!')).body.user as User).id;
      const socket: Socket = io(stack.baseUrl, {
        path: SOCKET_PATH,
        transports: [transport],
        extraHeaders: { cookie: user.sessionCookie },
        reconnection: false,
      });
      try {
        let disconnected = false;
        socket.on('disconnect', () => (disconnected = true));
        await new Promise<void>((resolve, reject) => {
          socket.once('connect', () => resolve());
          socket.once('connect_error', reject);
        });
        expect(socket.io.engine.transport.name).toBe(transport);
        // Longer than the header, request and keep-alive bounds together: a long poll waits all this time.
        await new Promise((r) => setTimeout(r, HEADERS_MS + REQUEST_MS + KEEP_ALIVE_MS + 500));
        expect(disconnected).toBe(false);
        expect(socket.connected).toBe(true);
        const received = new Promise((resolve) => socket.once('balance.updated', resolve));
        const credits = transport === 'websocket' ? 111 : 222;
        await admin.request('PUT', `/v1/admin/users/${userId}/credits`, { credits, reason: 'Test' });
        expect(await received).toEqual({ user_id: userId, balance: credits });
        expect(disconnected).toBe(false);
      } finally {
        socket.disconnect();
      }
    },
  );
});

describe('connection bounds: configuration', () => {
  it('bounds every connection by default, and refuses bounds that cannot hold', () => {
    const defaults = loadConfig({});
    expect(defaults).toMatchObject({
      HTTP_HEADERS_TIMEOUT_MS: 10_000,
      HTTP_REQUEST_TIMEOUT_MS: 30_000,
      HTTP_KEEP_ALIVE_TIMEOUT_MS: 10_000,
      HTTP_IDLE_TIMEOUT_MS: 60_000,
    });
    expect(() => loadConfig({ HTTP_HEADERS_TIMEOUT_MS: '5000', HTTP_REQUEST_TIMEOUT_MS: '4000' })).toThrow(
      /HTTP_HEADERS_TIMEOUT_MS must not exceed HTTP_REQUEST_TIMEOUT_MS/,
    );
    // Shorter than socket.io's long poll would cut the dashboards' live updates.
    expect(() => loadConfig({ HTTP_IDLE_TIMEOUT_MS: '20000' })).toThrow(/HTTP_IDLE_TIMEOUT_MS/);
    expect(() => loadConfig({ HTTP_REQUEST_TIMEOUT_MS: '0' })).toThrow(/HTTP_REQUEST_TIMEOUT_MS/);
    expect(() => loadConfig({ HTTP_KEEP_ALIVE_TIMEOUT_MS: 'soon' })).toThrow(/HTTP_KEEP_ALIVE_TIMEOUT_MS/);
  });
});
