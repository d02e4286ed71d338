import { randomUUID } from 'node:crypto';
import { type ServerResponse, STATUS_CODES } from 'node:http';
import { type AddressInfo, createServer as createTcpServer, type Server as TcpServer, type Socket } from 'node:net';
import {
  type Account,
  FORBIDDEN_CHARACTERS,
  QueueName,
  type Ticket,
  type WebhookDeliveriesResponse,
  type WebhookDelivery,
  type WebhookSecretResponse,
} from '@seatlink/contracts';
import type { WalletSimApp } from '@seatlink/wallet-sim';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE } from '../../infra/db/database.module.js';
import type { Database } from '../../infra/db/database.js';
import { JOB_QUEUE, type JobQueue } from '../../infra/queue/queue.port.js';
import { claimLink, makeLink, newLinkHolder } from '../../testing/link-holder.js';
import { hasRedisServer, type PrivateRedis, startPrivateRedis } from '../../testing/private-redis.js';
import { ApiClient, startTestStack, subscriptionsCaughtUp, type TestStack } from '../../testing/test-app.js';
import { until } from '../../testing/until.js';
import { createVerifiedUser } from '../../testing/users.js';
import { type Arrival, type Behaviour, WebhookReceiver as Receiver } from '../../testing/webhook-receiver.js';
import { simControl, startSim, WALLET_PASSWORD } from '../../testing/wallet-fixture.js';
import { SyncWalletAccountJob } from '../wallet-accounts/sync-wallet-account.job.js';
import { SweepWebhooksJob } from './deliver-webhooks.job.js';

/**
 * The unhappy paths of webhooks, on the real PostgreSQL and Redis: a Redis that loses its data, a worker that died
 * mid-try, endpoints that answer badly (or never, or forever), bursts of tests and resends, provider text at the edges
 * of Unicode, and an endpoint deleted while its deliveries wait. Outcomes only: what arrived, how often, in what order,
 * and what the delivery log says.
 */

/** Answers `status` with a short body. */
function answer(got: Arrival, res: ServerResponse, status: number, message?: string) {
  got.answered = status;
  if (message === undefined) res.writeHead(status);
  else res.writeHead(status, message);
  res.end('ok');
}

/** Answers `status`, then writes 16 KB chunks for as long as the connection is open. */
function endless(got: Arrival, res: ServerResponse, status: number) {
  got.answered = status;
  res.writeHead(status, { 'content-type': 'application/octet-stream' });
  const chunk = Buffer.alloc(16 * 1024, 'x');
  const pump = () => {
    while (!res.destroyed && !res.writableEnded) {
      if (!res.write(chunk)) {
        res.once('drain', pump);
        return;
      }
    }
  };
  pump();
}

/** A TCP server that answers the first bytes of each connection with `reply` (raw bytes HTTP would not send). */
class RawReceiver {
  requests = 0;
  private readonly sockets = new Set<Socket>();
  private server!: TcpServer;
  url = '';

  constructor(private readonly reply: (socket: Socket) => void) {}

  async start() {
    this.server = createTcpServer((socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      socket.on('error', () => undefined);
      socket.once('data', () => {
        this.requests++;
        this.reply(socket);
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async close() {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const stripe = new Stripe('sk_test_x');
/** Control and bidi characters: what no delivery log text nor delivered ticket text may hold. */
const UNPRINTABLE = new RegExp(FORBIDDEN_CHARACTERS.source, 'u');

const WEBHOOK_ENV = {
  WALLET_SYNC_FOLLOW_UPS_MS: '',
  WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
  WEBHOOK_BACKOFF_MS: '150',
  WEBHOOK_TIMEOUT_MS: '800',
  WEBHOOK_SWEEP_MS: '400',
  WEBHOOK_SETTLE_MS: '200',
  // Failing endpoints here must stay on (their disabling is webhooks.int.spec.ts's).
  WEBHOOK_DISABLE_AFTER_FAILURES: '100000',
  // Bursts of 20 test events and resends to one endpoint: their count per endpoint is
  // webhook-endpoint-limits.int.spec.ts's.
  THROTTLE_WEBHOOK_ENDPOINT: '1000',
};

interface DeliveryRow {
  id: string;
  event_id: string;
  order_key: string;
  type: string;
  status: string;
  attempts: number;
  last_error: string | null;
  next_attempt_at: Date | null;
}

/** What both stacks share: a user's client, endpoints, the delivery log. */
function helpers(get: () => { stack: TestStack; database: Database }) {
  const signedIn = async () => {
    const { stack } = get();
    const user = await createVerifiedUser(stack.app);
    const client = new ApiClient(stack.baseUrl);
    expect((await client.login(user.email, user.password)).status).toBe(200);
    return { client, id: user.id };
  };
  const addEndpoint = async (client: ApiClient, url: string, events: string[]) => {
    const res = await client.request('POST', '/v1/me/webhooks', { url, events });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as unknown as WebhookSecretResponse;
  };
  const deliveriesOf = async (client: ApiClient, endpointId: string) => {
    const res = await client.request('GET', `/v1/me/webhooks/${endpointId}/deliveries`);
    expect(res.status).toBe(200);
    return (res.body as unknown as WebhookDeliveriesResponse).deliveries;
  };
  const rowsOf = (endpointId: string) =>
    get().database.query<DeliveryRow>(
      `select id, event_id, order_key, type, status, attempts, last_error, next_attempt_at
         from webhook_deliveries where endpoint_id = $1 order by occurred_at, seq`,
      [endpointId],
    );
  return { signedIn, addEndpoint, deliveriesOf, rowsOf };
}

describe('webhooks when things go wrong', () => {
  let sim: WalletSimApp;
  let control: ReturnType<typeof simControl>;
  let stack: TestStack;
  let database: Database;
  let admin: ApiClient;
  const closers: Array<{ close(): Promise<void> }> = [];
  const { signedIn, addEndpoint, deliveriesOf, rowsOf } = helpers(() => ({ stack, database }));

  const receiver = async () => {
    const r = await new Receiver().start();
    closers.push(r);
    return r;
  };
  const rawReceiver = async (reply: (socket: Socket) => void) => {
    const r = await new RawReceiver(reply).start();
    closers.push(r);
    return r;
  };

  beforeAll(async () => {
    let url: string;
    ({ sim, url } = await startSim());
    control = simControl(url);
    stack = await startTestStack({ env: { WALLET_PROVIDER_URL: url, ...WEBHOOK_ENV } });
    database = stack.app.get<Database>(DATABASE);
    admin = new ApiClient(stack.baseUrl);
    await admin.login('admin@seatlink.test', 'Admin123!');
  }, 60_000);
  afterAll(async () => {
    for (const c of closers) await c.close().catch(() => undefined);
    await stack?.close();
    await sim?.close();
  });

  it('delivers, in order and once, what a worker that died mid-try left leased, once its lease has passed', async () => {
    const hooks = await receiver();
    const { client, id: userId } = await signedIn();
    const { webhook } = await addEndpoint(client, `${hooks.url}/dead-worker`, ['credits.changed']);
    const body = (id: string) =>
      JSON.stringify({ id, type: 'credits.changed', created_at: new Date().toISOString(), data: { n: id } });
    // Rows as a worker leaves them when it dies mid-try: leased a moment longer, no job queued for them.
    const insert = async (id: string, orderKey: string, leaseMs: number | null, attempts: number) => {
      const [row] = await database.query<{ leased_until: Date | null }>(
        `insert into webhook_deliveries (id, endpoint_id, user_id, order_key, event_id, type, payload, created_at,
                                         occurred_at, next_attempt_at, leased_until, attempts, last_error)
         values ($1, $2, $3, $4, $1, 'credits.changed', $5, now(), clock_timestamp(), now(),
                 case when $6::int is null then null else now() + make_interval(secs => $6::int / 1000.0) end,
                 $7::int, case when $7::int > 0 then 'HTTP 500 Internal Server Error' end)
         returning leased_until`,
        [id, webhook.id, userId, orderKey, body(id), leaseMs, attempts],
      );
      return row!.leased_until;
    };
    const head = randomUUID();
    const behind = randomUUID();
    const third = randomUUID();
    const headLease = await insert(head, 'credits:dead-worker', 800, 0);
    // Behind the leased head on its key: it must wait for it.
    await insert(behind, 'credits:dead-worker', null, 0);
    // Another key, its third try cut short.
    const thirdLease = await insert(third, 'credits:dead-worker-2', 600, 2);

    await until(
      'the three delivered',
      async () => (await rowsOf(webhook.id)).every((d) => d.status === 'delivered'),
      15_000,
    );
    await sleep(800);
    expect(hooks.of(head)).toHaveLength(1);
    expect(hooks.of(behind)).toHaveLength(1);
    expect(hooks.of(third)).toHaveLength(1);
    // Not tried while leased (one clock: PostgreSQL and this process run on the same machine).
    expect(hooks.of(head)[0]!.at).toBeGreaterThanOrEqual(headLease!.getTime() - 5);
    expect(hooks.of(third)[0]!.at).toBeGreaterThanOrEqual(thirdLease!.getTime() - 5);
    // The key's order holds: the one behind went after the head.
    expect(hooks.received.indexOf(hooks.of(behind)[0]!)).toBeGreaterThan(hooks.received.indexOf(hooks.of(head)[0]!));
    const log = await deliveriesOf(client, webhook.id);
    expect(Object.fromEntries(log.map((d) => [d.id, [d.status, d.attempts, d.last_error]]))).toEqual({
      [head]: ['delivered', 1, null],
      [behind]: ['delivered', 1, null],
      [third]: ['delivered', 3, null],
    });
  });

  it('ends each try at an endpoint that misbehaves as it should, and keeps serving', async () => {
    interface Case {
      name: string;
      url: string;
      status: WebhookDelivery['status'];
      lastStatus: number | null;
      error: string | RegExp | null;
      /** The receiver's response connection must be closed by Seatlink (an answer it does not read to its end). */
      cut?: () => boolean;
    }
    const cases: Case[] = [];
    const viaHttp = async (
      name: string,
      behave: Behaviour,
      expected: Omit<Case, 'name' | 'url' | 'cut'>,
      mustCut = false,
    ) => {
      const r = await receiver();
      r.behave = behave;
      cases.push({
        name,
        url: `${r.url}/${name}`,
        ...expected,
        ...(mustCut ? { cut: () => r.received.length > 0 && r.received.every((g) => g.closed()) } : {}),
      });
    };
    const viaTcp = async (name: string, reply: (socket: Socket) => void, expected: Omit<Case, 'name' | 'url'>) => {
      const r = await rawReceiver(reply);
      cases.push({ name, url: `${r.url}/${name}`, ...expected });
    };
    const rawAnswer = (bytes: Buffer) => (socket: Socket) => {
      socket.end(bytes);
    };

    // 2xx whose body never ends, is huge, or never comes: delivered all the same, and the answer cut off.
    await viaHttp('endless-200', (g, _q, res) => endless(g, res, 200), ok(200), true);
    await viaHttp(
      'huge-200',
      (g, _q, res) => {
        g.answered = 200;
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end(Buffer.alloc(10 * 1024 * 1024, 'y'));
      },
      ok(200),
      true,
    );
    await viaHttp(
      'headers-then-hang-200',
      (g, _q, res) => {
        g.answered = 200;
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.flushHeaders();
      },
      ok(200),
      true,
    );
    await viaHttp(
      'headers-then-hang-500',
      (g, _q, res) => {
        g.answered = 500;
        res.writeHead(500);
        res.flushHeaders();
      },
      failed(500, 'HTTP 500 Internal Server Error'),
      true,
    );
    await viaHttp(
      'endless-503',
      (g, _q, res) => endless(g, res, 503),
      failed(503, 'HTTP 503 Service Unavailable'),
      true,
    );
    // Gone right after the request, or never answering.
    await viaHttp('reset', (_g, req) => req.socket.destroy(), failed(null, 'The connection was reset'));
    await viaHttp('hang', () => undefined, failed(null, 'No answer within 800 ms'));
    // Informational answers first, then the real one.
    await viaHttp(
      'informational-then-204',
      (g, _q, res) => {
        res.writeProcessing();
        res.writeEarlyHints({ link: '</style.css>; rel=preload; as=style' });
        answer(g, res, 204);
      },
      ok(204),
    );
    // Odd bytes (Latin-1 and C1 controls, as Node lets a server send them) in the reason phrase.
    await viaHttp(
      'latin1-reason',
      (g, _q, res) => answer(g, res, 500, 'Bad \u00ff\u0085\u009b31m\u00a0end'),
      failed(500, /^HTTP 500 Bad \u00ff\uFFFD\uFFFD31m\u00a0end$/),
    );
    // Every class of status.
    for (const status of [200, 201, 202, 204, 299]) {
      await viaHttp(`status-${status}`, (g, _q, res) => answer(g, res, status), ok(status));
    }
    for (const status of [301, 302, 303, 304, 307, 308]) {
      await viaHttp(
        `status-${status}`,
        (g, _q, res) => {
          res.setHeader('location', '/elsewhere');
          answer(g, res, status);
        },
        failed(status, `HTTP ${status}: redirects are not followed`),
      );
    }
    for (const status of [400, 401, 403, 404, 410, 413, 429, 500, 502, 503, 504]) {
      await viaHttp(
        `status-${status}`,
        (g, _q, res) => answer(g, res, status),
        failed(status, `HTTP ${status} ${STATUS_CODES[status]}`),
      );
    }
    await viaHttp('status-999', (g, _q, res) => answer(g, res, 999, 'Beyond'), failed(999, 'HTTP 999 Beyond'));

    // What no HTTP server library would send: NUL, escape sequences and bell in the reason, UTF-8 bidi overrides, a
    // reason of 100 KB, no HTTP at all, an answer cut mid-line, a 101 nobody asked for, headers that never end.
    await viaTcp(
      'nul-reason',
      rawAnswer(
        Buffer.concat([
          Buffer.from('HTTP/1.1 500 a'),
          Buffer.from([0x00]),
          Buffer.from('b\x1b[31mred\x07\r\ncontent-length: 0\r\nconnection: close\r\n\r\n', 'latin1'),
        ]),
      ),
      failed(500, /^HTTP 500 a\uFFFDb\uFFFD\[31mred\uFFFD$/),
    );
    await viaTcp(
      'utf8-bidi-reason',
      rawAnswer(
        Buffer.from('HTTP/1.1 503 \u202Eevil\u202C \u{1F600}\r\ncontent-length: 0\r\nconnection: close\r\n\r\n'),
      ),
      failed(503, /^HTTP 503 /),
    );
    await viaTcp(
      'long-reason',
      rawAnswer(Buffer.from(`HTTP/1.1 500 ${'x'.repeat(100_000)}\r\ncontent-length: 0\r\n\r\n`)),
      failed(null, /Header overflow/),
    );
    await viaTcp('not-http', rawAnswer(Buffer.from('SSH-2.0-OpenSSH_9.6\r\n\r\n')), failed(null, /Parse Error/));
    await viaTcp('cut-mid-line', rawAnswer(Buffer.from('HTTP/1.1 20')), failed(null, /./));
    await viaTcp(
      'unasked-101',
      (socket) => socket.write('HTTP/1.1 101 Switching Protocols\r\nconnection: upgrade\r\nupgrade: x\r\n\r\n'),
      failed(null, /./),
    );
    await viaTcp(
      'endless-headers',
      (socket) => {
        socket.write('HTTP/1.1 200 OK\r\n');
        const drip = setInterval(() => {
          if (socket.destroyed) clearInterval(drip);
          else socket.write('x-drip: 1\r\n');
        }, 50);
        socket.on('close', () => clearInterval(drip));
      },
      failed(null, 'No answer within 800 ms'),
    );

    // At most 10 endpoints a user: as many users as that takes, each case a test event of its own.
    const sent: Array<{ c: Case; client: ApiClient; endpointId: string; deliveryId: string }> = [];
    for (let i = 0; i < cases.length; i += 10) {
      const { client } = await signedIn();
      for (const c of cases.slice(i, i + 10)) {
        const { webhook } = await addEndpoint(client, c.url, ['credits.changed']);
        const res = await client.request('POST', `/v1/me/webhooks/${webhook.id}/test`);
        expect(res.status, c.name).toBe(202);
        sent.push({ c, client, endpointId: webhook.id, deliveryId: (res.body.delivery as WebhookDelivery).id });
      }
    }
    const outcomes = new Map<string, WebhookDelivery>();
    await until(
      'every case tried',
      async () => {
        for (const s of sent) {
          if (outcomes.has(s.c.name)) continue;
          const d = (await deliveriesOf(s.client, s.endpointId)).find((x) => x.id === s.deliveryId);
          if (d && d.status !== 'pending') outcomes.set(s.c.name, d);
        }
        return outcomes.size === sent.length;
      },
      30_000,
    ).catch((err: Error) => {
      throw new Error(
        `${err.message}; still pending: ${sent
          .filter((s) => !outcomes.has(s.c.name))
          .map((s) => s.c.name)
          .join(', ')}`,
      );
    });
    const seen = Object.fromEntries(
      sent.map(({ c }) => {
        const d = outcomes.get(c.name)!;
        const error =
          c.error instanceof RegExp ? (c.error.test(d.last_error ?? '') ? 'matches' : d.last_error) : d.last_error;
        return [c.name, { status: d.status, attempts: d.attempts, last_status: d.last_status, error }];
      }),
    );
    const wanted = Object.fromEntries(
      sent.map(({ c }) => [
        c.name,
        {
          status: c.status,
          attempts: 1,
          last_status: c.lastStatus,
          error: c.error instanceof RegExp ? 'matches' : c.error,
        },
      ]),
    );
    expect(seen).toEqual(wanted);
    for (const d of outcomes.values()) expect(d.last_error ?? '').not.toMatch(UNPRINTABLE);
    // An answer Seatlink does not read to its end is cut off, not left streaming into it.
    const cuts = sent.filter((s) => s.c.cut);
    await until('the endless answers cut off', () => cuts.every((s) => s.c.cut!()), 10_000).catch((err: Error) => {
      throw new Error(
        `${err.message}: ${cuts
          .filter((s) => !s.c.cut!())
          .map((s) => s.c.name)
          .join(', ')}`,
      );
    });

    // Still serving: health, and a plain endpoint still gets its test event.
    expect((await fetch(`${stack.baseUrl}/health`)).status).toBe(200);
    const fine = await receiver();
    const { client } = await signedIn();
    const { webhook } = await addEndpoint(client, `${fine.url}/fine`, ['credits.changed']);
    const test = await client.request('POST', `/v1/me/webhooks/${webhook.id}/test`);
    expect(test.status).toBe(202);
    await until('the plain test delivered', async () =>
      (await deliveriesOf(client, webhook.id)).find((d) => d.status === 'delivered'),
    );
    expect(fine.received).toHaveLength(1);
  }, 90_000);

  it('answers a burst of 20 test events and 20 resends of one delivery with 202s, each delivered once', async () => {
    const hooks = await receiver();
    const { client } = await signedIn();
    const { webhook } = await addEndpoint(client, `${hooks.url}/burst`, ['credits.changed']);
    const tests = await Promise.all(
      Array.from({ length: 20 }, () => client.request('POST', `/v1/me/webhooks/${webhook.id}/test`)),
    );
    expect(tests.map((t) => t.status)).toEqual(Array(20).fill(202));
    const made = tests.map((t) => t.body.delivery as WebhookDelivery);
    expect(new Set(made.map((d) => d.id)).size).toBe(20);
    expect(new Set(made.map((d) => d.event_id)).size).toBe(20);
    await until('the 20 tests delivered', async () => {
      const log = await deliveriesOf(client, webhook.id);
      return made.every((m) => log.find((d) => d.id === m.id)?.status === 'delivered');
    });
    for (const m of made) expect(hooks.of(m.event_id), m.id).toHaveLength(1);

    const original = made[0]!;
    const resends = await Promise.all(
      Array.from({ length: 20 }, () =>
        client.request('POST', `/v1/me/webhooks/${webhook.id}/deliveries/${original.id}/resend`),
      ),
    );
    expect(resends.map((r) => r.status)).toEqual(Array(20).fill(202));
    const again = resends.map((r) => r.body.delivery as WebhookDelivery);
    expect(new Set(again.map((d) => d.id)).size).toBe(20);
    expect(again.every((d) => d.event_id === original.event_id && d.id !== original.id)).toBe(true);
    await until('the 20 resends delivered', async () => {
      const log = await deliveriesOf(client, webhook.id);
      return again.every((m) => log.find((d) => d.id === m.id)?.status === 'delivered');
    });
    await sleep(800);
    // The original once, and each resend once: the same event 21 times, each time the same body.
    expect(hooks.of(original.event_id)).toHaveLength(21);
    expect(new Set(hooks.of(original.event_id).map((r) => r.raw)).size).toBe(1);
    expect(hooks.received).toHaveLength(40);
    const log = await deliveriesOf(client, webhook.id);
    expect(log).toHaveLength(40);
    expect(log.every((d) => d.status === 'delivered' && d.attempts === 1 && d.last_status === 200)).toBe(true);
  });

  it('delivers tickets whose provider text is odd Unicode as valid JSON that Stripe’s verifier accepts', async () => {
    const hooks = await receiver();
    const { client } = await signedIn();
    const { secret, webhook } = await addEndpoint(client, `${hooks.url}/tickets`, ['ticket.synced']);
    const email = `odd-${randomUUID().slice(0, 8)}@wallet.test`;
    const tag = email.split('@')[0]!;
    await control('POST', '/wallets', { email, password: WALLET_PASSWORD, first_name: 'Odd', last_name: 'Text' });
    const raw = (id: string, title: unknown, venue: unknown, subtitle: unknown = 'Round 1') =>
      control('POST', `/wallets/${encodeURIComponent(email)}/raw-passes`, {
        id: `${tag}-${id}`,
        pass: {
          id: `${tag}-${id}`,
          barcode: `BC-${tag}-${id}`,
          event: { title, subtitle, logo_url: null },
          venue: { name: venue },
          seat: { section: 'North \u{1F3DF}\uFE0F', row: '\u05D0', seat: '\u0661\u0662' },
          next_game: null,
          save_url: null,
        },
      });
    const family = '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}\u200D\u{1F466}';
    await raw(
      'bidi',
      `Derby \u202Eyad\u202C \u{1F39F}\uFE0F ${family} \u26BD`,
      '\u2067\u05D0\u05E6\u05D8\u05D3\u05D9\u05D5\u05DF\u2069 Stadium',
    );
    await raw(
      'rtl',
      '\u0645\u0628\u0627\u0631\u0627\u0629 \u0627\u0644\u062F\u064A\u0631\u0628\u064A \u2014 \u05D3\u05E8\u05D1\u05D9',
      '\u0645\u0644\u0639\u0628 \u200F\u061C\u200E',
    );
    // 10 KB strings: astral characters (a cut must not split a pair), Arabic, combining marks.
    await raw('long', '\u{1D518}'.repeat(5_000), '\u0628'.repeat(10_000), `Z\u0364\u0311\u0313a\u0308`.repeat(2_000));
    await raw(
      'escapes',
      'Quote " backslash \\ slash </script> line\u2028sep\u2029para \uFEFFbom \uFFFF nonchar',
      'Tab\tand\nnew\r\nlines',
      '{"json":"inside"}',
    );
    // A plain pass, changed later to odd text (a TicketChanged).
    await control('POST', `/wallets/${encodeURIComponent(email)}/passes`, {
      id: `${tag}-plain`,
      event: { title: 'Plain Match', subtitle: 'Round 9' },
      venue: { name: 'Quayside Stadium' },
      visible_after_ms: 0,
    });
    const linked = await client.request('POST', '/v1/accounts', { email, password: WALLET_PASSWORD });
    expect(linked.status, JSON.stringify(linked.body)).toBeLessThan(300);
    const account = linked.body as unknown as Account;
    const ticketsNow = async () =>
      ((await client.request('GET', '/v1/tickets')).body.tickets as Ticket[]).filter(
        (t) => t.account_id === account.id,
      );
    await until('five tickets synced', async () => (await ticketsNow()).length === 5);
    await until('five told of', () => hooks.received.length >= 5);

    await subscriptionsCaughtUp(stack.app);
    await control('PATCH', `/wallets/${encodeURIComponent(email)}/passes/${tag}-plain`, {
      event: { title: `\u202ENew\u202C \u{1F525} ${'\u05E9'.repeat(150)}` },
      venue: { name: `\u{1F3DF}\uFE0F ${'\u{1F600}'.repeat(90)}` },
    });
    await stack.app.get(SyncWalletAccountJob).run({ accountId: account.id, reason: 'test' });
    await until('the change told of', () =>
      hooks.received.find((r) => (r.body?.data as { change?: string } | undefined)?.change === 'changed'),
    );
    const tickets = await ticketsNow();

    for (const got of hooks.received) {
      expect(got.body, got.raw.slice(0, 200)).not.toBeNull();
      expect(Number(got.headers['content-length'])).toBe(Buffer.byteLength(got.raw, 'utf8'));
      const header = String(got.headers['seatlink-signature']);
      expect(stripe.webhooks.constructEvent(got.raw, header, secret).id).toBe(got.body!.id);
      expect(() => stripe.webhooks.constructEvent(got.raw, header, 'whsec_wrong')).toThrow();
      // Nothing a page or a log would show reversed or hidden, and each told ticket as the product shows it.
      expect(got.raw).not.toMatch(UNPRINTABLE);
      const data = got.body!.data as { ticket_id: string; ticket: Record<string, unknown> };
      const shown = tickets.find((t) => t.id === data.ticket_id)!;
      if (got !== hooks.received.findLast((r) => r.body?.data.ticket_id === data.ticket_id)) continue;
      expect(data.ticket, shown.title).toMatchObject({
        title: shown.title,
        subtitle: shown.subtitle,
        venue_name: shown.venue_name,
        section: shown.seat.section,
        row: shown.seat.row,
        seat: shown.seat.seat,
      });
    }
    const titles = hooks.received.map((r) => (r.body!.data.ticket as { title: string }).title);
    expect(titles).toContain(`Derby yad \u{1F39F}\uFE0F ${family} \u26BD`);
    const long = titles.find((t) => t.startsWith('\u{1D518}'))!;
    expect(long.length).toBeLessThanOrEqual(200);
    expect(long).toBe('\u{1D518}'.repeat(long.length / 2));
    expect(titles.some((t) => t.startsWith('New \u{1F525}'))).toBe(true);
    const log = await deliveriesOf(client, webhook.id);
    expect(log).toHaveLength(6);
    expect(log.every((d) => d.status === 'delivered' && d.attempts === 1)).toBe(true);
  }, 60_000);

  it('fails the deliveries an endpoint deleted meanwhile had pending, and sends it nothing more', async () => {
    const hooks = await receiver();
    hooks.behave = (got, _req, res) => answer(got, res, 500);
    const holder = await newLinkHolder(stack, admin, control, { tickets: 2, credits: 20 });
    const { webhook } = await addEndpoint(holder.client, `${hooks.url}/going`, ['link.claimed', 'credits.changed']);
    const first = await makeLink(holder.client, holder.tickets[0]!);
    const second = await makeLink(holder.client, holder.tickets[1]!);
    for (const code of [first.code, first.code, second.code])
      expect((await claimLink(stack.baseUrl, code)).status).toBe(200);
    expect(
      (await admin.request('PUT', `/v1/admin/users/${holder.id}/credits`, { credits: 50, reason: 'Test' })).status,
    ).toBe(200);
    // Each key (two links, the balance) failing: tried twice or more, waiting for its next try.
    const keys = await until('every key failing', async () => {
      const rows = await rowsOf(webhook.id);
      const byKey = new Map<string, number>();
      for (const r of rows) byKey.set(r.order_key, Math.max(byKey.get(r.order_key) ?? 0, r.attempts));
      return byKey.size === 3 && [...byKey.values()].every((n) => n >= 2) ? [...byKey.keys()] : undefined;
    });
    expect((await rowsOf(webhook.id)).length).toBeGreaterThanOrEqual(6);

    const deleted = await holder.client.request('DELETE', `/v1/me/webhooks/${webhook.id}`);
    expect(deleted.status).toBe(200);
    const answeredAt = Date.now();
    const triedBefore = hooks.received.length;

    await until(
      'every delivery failed',
      async () => (await rowsOf(webhook.id)).every((r) => r.status !== 'pending'),
      15_000,
    );
    // Longer than the next tries' waits and a few sweeps: what a stray job or the sweep would send shows up.
    await sleep(2500);
    const rows = await rowsOf(webhook.id);
    expect(rows.map((r) => [r.status, r.last_error, r.next_attempt_at])).toEqual(
      rows.map(() => ['failed', 'The endpoint was deleted', null]),
    );
    // At most the try each key had in flight when the delete was answered (one per key), nothing after.
    const after = hooks.received.slice(triedBefore);
    const keyOf = (r: Arrival) => {
      const data = r.body!.data as { link_id?: string };
      return data.link_id ? `link:${data.link_id}` : `credits:${holder.id}`;
    };
    expect(after.length, JSON.stringify(after.map(keyOf))).toBeLessThanOrEqual(keys.length);
    expect(new Set(after.map(keyOf)).size).toBe(after.length);
    expect(after.every((r) => r.at - answeredAt < 1500)).toBe(true);
    expect((await holder.client.request('GET', `/v1/me/webhooks/${webhook.id}/deliveries`)).status).toBe(404);
  }, 60_000);

  /** `n` deliveries of one key, all due now, in order, and no job queued (the sweep finds them: one run takes all). */
  const insertDue = async (endpointId: string, userId: string, orderKey: string, n: number) => {
    const ids = Array.from({ length: n }, () => randomUUID());
    await database.query(
      `insert into webhook_deliveries (id, endpoint_id, user_id, order_key, event_id, type, payload, created_at,
                                       occurred_at, next_attempt_at)
       select id, $2, $3, $4, id, 'credits.changed',
              json_build_object('id', id, 'type', 'credits.changed', 'created_at', now(), 'data', json_build_object('n', n))::text,
              now(), now() + n * interval '1 millisecond', now()
         from unnest($1::uuid[]) with ordinality as t(id, n)`,
      [ids, endpointId, userId, orderKey],
    );
    return ids;
  };

  it('sends nothing more once the delete is answered, even from a run that was delivering a long queue', async () => {
    const hooks = await receiver();
    hooks.behave = (got, _req, res) => setTimeout(() => answer(got, res, 200), 100);
    const { client, id: userId } = await signedIn();
    const { webhook } = await addEndpoint(client, `${hooks.url}/busy`, ['credits.changed']);
    const ids = await insertDue(webhook.id, userId, 'credits:busy', 30);
    await until('the run under way', () => hooks.received.length >= 3);
    expect((await client.request('DELETE', `/v1/me/webhooks/${webhook.id}`)).status).toBe(200);
    const triedBefore = hooks.received.length;
    await until('none pending', async () => (await rowsOf(webhook.id)).every((r) => r.status !== 'pending'));
    await sleep(1000);
    const after = hooks.received.slice(triedBefore);
    // The try in flight when the delete was answered, at most.
    expect(after.length, `${after.length} of 30 sent after the delete was answered`).toBeLessThanOrEqual(1);
    const rows = await rowsOf(webhook.id);
    expect(rows.filter((r) => r.status === 'delivered').length).toBe(hooks.received.length);
    expect(rows.filter((r) => r.status === 'failed').every((r) => r.last_error === 'The endpoint was deleted')).toBe(
      true,
    );
    expect(hooks.received.map((r) => r.body!.id)).toEqual(ids.slice(0, hooks.received.length));
  }, 30_000);

  it('sends to the new address once a change of address is answered, even from a run under way', async () => {
    const before = await receiver();
    const moved = await receiver();
    for (const r of [before, moved]) r.behave = (got, _req, res) => setTimeout(() => answer(got, res, 200), 100);
    const { client, id: userId } = await signedIn();
    const { webhook } = await addEndpoint(client, `${before.url}/old`, ['credits.changed']);
    const ids = await insertDue(webhook.id, userId, 'credits:moving', 30);
    await until('the run under way', () => before.received.length >= 3);
    const changed = await client.request('PATCH', `/v1/me/webhooks/${webhook.id}`, { url: `${moved.url}/new` });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    const sentBefore = before.received.length;
    await until('all delivered', async () => (await rowsOf(webhook.id)).every((r) => r.status === 'delivered'));
    await sleep(500);
    const stray = before.received.length - sentBefore;
    expect(stray, `${stray} of 30 sent to the old address after the change was answered`).toBeLessThanOrEqual(1);
    // Each once, in order, across the two.
    expect([...before.received, ...moved.received].map((r) => r.body!.id)).toEqual(ids);
  }, 30_000);

  it('fails at once, not at its next try hours later, a delivery waiting out a long backoff when its endpoint is deleted', async () => {
    const hooks = await receiver();
    const { client, id: userId } = await signedIn();
    const { webhook } = await addEndpoint(client, `${hooks.url}/long-wait`, ['credits.changed']);
    const id = randomUUID();
    // As an endpoint failing for a day leaves it: its next try hours away (the waits grow to six hours).
    await database.query(
      `insert into webhook_deliveries (id, endpoint_id, user_id, order_key, event_id, type, payload, created_at,
                                       occurred_at, next_attempt_at, attempts, last_status, last_error, last_attempt_at)
       values ($1, $2, $3, 'credits:long-wait', $1, 'credits.changed', $4, now() - interval '1 day',
               now() - interval '1 day', now() + interval '5 hours', 12, 500, 'HTTP 500 Internal Server Error', now())`,
      [id, webhook.id, userId, JSON.stringify({ id, type: 'credits.changed', created_at: '', data: {} })],
    );
    expect((await client.request('DELETE', `/v1/me/webhooks/${webhook.id}`)).status).toBe(200);
    const [row] = await until(
      'the waiting delivery failed',
      async () => {
        const rows = await rowsOf(webhook.id);
        return rows[0]?.status !== 'pending' ? rows : undefined;
      },
      10_000,
    ).catch(async (err: Error) => {
      const [r] = await rowsOf(webhook.id);
      throw new Error(`${err.message}: still ${r?.status}, next try at ${r?.next_attempt_at?.toISOString()}`);
    });
    expect([row!.status, row!.last_error]).toEqual(['failed', 'The endpoint was deleted']);
    expect(hooks.received).toHaveLength(0);
  }, 30_000);
});

describe.skipIf(!hasRedisServer())('webhooks when Redis loses its data', () => {
  let redis: PrivateRedis;
  let sim: WalletSimApp;
  let simUrl: string;
  let stack: TestStack;
  let database: Database;
  let admin: ApiClient;
  let hooks: Receiver;
  const { addEndpoint, rowsOf } = helpers(() => ({ stack, database }));

  beforeAll(async () => {
    redis = await startPrivateRedis();
    ({ sim, url: simUrl } = await startSim());
    stack = await startTestStack({
      env: {
        WALLET_PROVIDER_URL: simUrl,
        ...WEBHOOK_ENV,
        REDIS_URL: redis.url,
        REDIS_COMMAND_TIMEOUT_MS: '300',
        // The repeating sweep is made again by the job runner's check (every minute by default): every half second.
        JOB_SCHEDULES_CHECK_MS: '500',
      },
    });
    database = stack.app.get<Database>(DATABASE);
    admin = new ApiClient(stack.baseUrl);
    await admin.login('admin@seatlink.test', 'Admin123!');
    hooks = await new Receiver().start();
  }, 60_000);
  afterAll(async () => {
    await hooks?.close();
    await stack?.close();
    await sim?.close();
    await redis?.kill();
  });

  it('delivers every pending delivery, due or waiting out a failure, once each after Redis restarts empty', async () => {
    const control = simControl(simUrl);
    let down = true;
    // Failing until Redis is back (test events excepted).
    hooks.behave = (got, _req, res) => answer(got, res, down && got.body?.type !== 'webhook.test' ? 500 : 200);
    const holder = await newLinkHolder(stack, admin, control, { tickets: 2, credits: 20 });
    const { webhook } = await addEndpoint(holder.client, `${hooks.url}/lost`, ['link.claimed', 'credits.changed']);
    const first = await makeLink(holder.client, holder.tickets[0]!);
    for (let i = 0; i < 3; i++) expect((await claimLink(stack.baseUrl, first.code)).status).toBe(200);
    for (const credits of [30, 40]) {
      expect(
        (await admin.request('PUT', `/v1/admin/users/${holder.id}/credits`, { credits, reason: 'Test' })).status,
      ).toBe(200);
    }
    // Both keys failing, their next tries delayed jobs in Redis.
    await until('both keys in backoff', async () => {
      const rows = await rowsOf(webhook.id);
      const tried = new Set(rows.filter((r) => r.attempts >= 2).map((r) => r.order_key));
      return tried.size === 2;
    });
    // Fresh ones just before the loss: a new link's claim (its job delayed by the settle wait) and a test event.
    const second = await makeLink(holder.client, holder.tickets[1]!);
    expect((await claimLink(stack.baseUrl, second.code)).status).toBe(200);
    expect((await holder.client.request('POST', `/v1/me/webhooks/${webhook.id}/test`)).status).toBe(202);
    // What is lost with Redis: the jobs of the tries to come, and the sweep's schedule.
    const queue = stack.app.get<JobQueue>(JOB_QUEUE);
    const queued = await queue.counts(QueueName.Webhooks);
    expect(queued.delayed + queued.waiting).toBeGreaterThan(0);
    const sweep = stack.app.get(SweepWebhooksJob);
    expect([...(await queue.repeatables(sweep.queue)).keys()]).toContain(sweep.name);

    await redis.kill();
    // Deliveries fall due while it is away.
    await sleep(1000);
    down = false;
    await redis.start();

    const rows = await until(
      'everything delivered',
      async () => {
        const now = await rowsOf(webhook.id);
        return now.length > 0 && now.every((r) => r.status === 'delivered') ? now : undefined;
      },
      30_000,
    ).catch(async (err: Error) => {
      const now = await rowsOf(webhook.id);
      throw new Error(
        `${err.message}: ${JSON.stringify(now.filter((r) => r.status !== 'delivered').map((r) => [r.order_key, r.status, r.attempts, r.next_attempt_at]))}`,
      );
    });
    expect(rows.length).toBeGreaterThanOrEqual(9);
    await sleep(1000);
    // Each taken (a 2xx) exactly once.
    for (const r of rows) {
      expect(
        hooks.of(r.event_id).filter((a) => a.answered === 200),
        `${r.type} ${r.order_key}`,
      ).toHaveLength(1);
    }
    // A link's claims taken in order.
    const taken = hooks.received.filter(
      (a) => a.answered === 200 && (a.body?.data as { link_id?: string }).link_id === first.distributionId,
    );
    expect(taken.map((a) => a.body!.data.claims)).toEqual([1, 2, 3]);
    // The sweep's schedule is back.
    expect([...(await queue.repeatables(sweep.queue)).keys()]).toContain(sweep.name);
  }, 90_000);
});

function ok(status: number) {
  return { status: 'delivered' as const, lastStatus: status, error: null };
}

function failed(status: number | null, error: string | RegExp) {
  return { status: 'failed' as const, lastStatus: status, error };
}
