/**
 * The real product for the browser benchmarks: the built all-in-one server (`services/server/dist/main.js`, what
 * `npm start` runs after its build) serving the built dashboard, on a PostgreSQL scratch database when DATABASE_URL is
 * set (its own embedded PostgreSQL server in a temporary DATA_DIR otherwise), with the wallet simulator mounted in it.
 *
 * `startBigAccount()` gives the demo user a big account the honest way, as such a holder would get one: wallets of
 * passes made in the simulator (its control API), linked to the user with `POST /v1/accounts` and synced for real by
 * the product, until `GET /v1/tickets` counts every pass. No demo wallets are seeded, so the user holds exactly those.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { DistributeResponse, TicketsResponse } from '@seatlink/contracts';
import { createScratchDatabase } from '../../services/server/src/testing/test-database.js';
import {
  exited,
  freePort,
  root,
  runNode,
  type RunningProcess,
  serverDist,
  waitForHealth,
} from '../../web/e2e/support/processes.js';
import { passOf } from './passes.js';
import { pooled } from '../../web/e2e/support/pooled.js';

export const DEMO_USER = { email: 'user@seatlink.test', password: 'User1234!' } as const;
const WALLET_PASSWORD = 'Wallet123!';

export interface Product {
  /** Where the browser goes, e.g. `http://localhost:41234`. */
  baseUrl: string;
  /** `PostgreSQL` or `embedded PostgreSQL`. */
  backend: string;
  /** The demo user's session cookie, `seatlink_session=…`. */
  cookie: string;
  /** The cookie's value alone (for a browser context). */
  sessionToken: string;
  /** The user's tickets once synced. */
  tickets: number;
  /** Seconds spent: starting the server, making the passes in the simulator, syncing them until all were listed. */
  timings: { start: number; passes: number; sync: number };
  /** Makes links of `n` of the user's tickets (POST /v1/tickets/distribute, a credit each); answers their addresses. */
  makeLinks(n: number): Promise<string[]>;
  stop(): Promise<void>;
}

export interface BigAccountOptions {
  /** Wallets to link (default 2). */
  wallets?: number;
  /** Passes in each wallet (default 5,000). */
  passesPerWallet?: number;
  /** How long the sync may take before the start gives up (default 10 minutes). */
  syncTimeoutMs?: number;
}

const log = (line: string) => console.log(`[product] ${line}`);
const seconds = (since: number) => (performance.now() - since) / 1000;

async function expectOk(res: Response, what: string): Promise<Response> {
  if (!res.ok) throw new Error(`${what}: ${res.status} ${await res.text()}`);
  return res;
}

export async function startBigAccount(options: BigAccountOptions = {}): Promise<Product> {
  const wallets = options.wallets ?? 2;
  const perWallet = options.passesPerWallet ?? 5_000;
  const webIndex = path.join(root, 'web/dist/index.html');
  if (!existsSync(webIndex) || !existsSync(path.join(serverDist, 'main.js'))) {
    throw new Error('The browser benchmarks need the built product: run `npm run build` first (`npm run bench` does).');
  }
  const started = performance.now();
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'seatlink-bench-'));
  // As root the embedded PostgreSQL server runs as the postgres user, which must reach its directory.
  chmodSync(dataDir, 0o755);
  const scratch = process.env.DATABASE_URL ? await createScratchDatabase(process.env.DATABASE_URL) : null;
  const controlKey = randomBytes(24).toString('base64url');
  const baseUrl = `http://localhost:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DASHBOARD_URL: baseUrl,
    REDIS_PREFIX: `bench${randomBytes(4).toString('hex')}`,
    LOG_LEVEL: 'warn',
    WALLET_SIM_CONTROL_KEY: controlKey,
    SEED_DEMO_WALLETS: 'false',
    // One sync when an account is linked, then none while the browser measures (a sync of 10,000 passes would).
    WALLET_SYNC_FOLLOW_UPS_MS: '',
    WALLET_SYNC_EVERY_MS: '86400000',
    THROTTLE_PUBLIC_IP: '100000',
    THROTTLE_LOGIN_IP: '1000',
    THROTTLE_LOGIN_ACCOUNT_IP: '1000',
    THROTTLE_LOGIN_ACCOUNT: '1000',
    THROTTLE_WALLET_SIGNIN_USER: '1000',
    THROTTLE_WALLET_SIGNIN_IP: '1000',
  };
  if (scratch) env.DATABASE_URL = scratch.url;
  else delete env.DATABASE_URL;
  const backend = scratch ? 'PostgreSQL' : 'embedded PostgreSQL';

  let server: RunningProcess | null = null;
  const stop = async () => {
    if (server && server.child.exitCode === null && server.child.signalCode === null) {
      server.child.kill('SIGTERM');
      // A server that has not stopped within 20 s is killed, and said.
      const stopped = await Promise.race([
        exited(server.child).then(() => true),
        new Promise<false>((resolve) => setTimeout(() => resolve(false), 20_000).unref()),
      ]);
      if (!stopped) {
        log('the server did not stop within 20 s of SIGTERM: killed');
        server.child.kill('SIGKILL');
        await exited(server.child);
      }
    }
    await scratch?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  };

  try {
    server = runNode(path.join(serverDist, 'main.js'), env, 'server');
    await waitForHealth(`http://127.0.0.1:${port}`, server.child, 120_000);
    const startSeconds = seconds(started);
    log(`${backend}, up in ${startSeconds.toFixed(1)} s at ${baseUrl}`);
    const api = `http://127.0.0.1:${port}`;

    // The wallets and their passes, made in the simulator as a holder's wallet would hold them.
    const passesStarted = performance.now();
    const control = (method: string, pathname: string, body: unknown) =>
      fetch(`${api}/wallet-sim/control${pathname}`, {
        method,
        headers: { 'content-type': 'application/json', 'x-control-key': controlKey },
        body: JSON.stringify(body),
      }).then((res) => expectOk(res, `${method} ${pathname}`));
    const startOfDay = new Date().setUTCHours(0, 0, 0, 0);
    const walletEmails = Array.from({ length: wallets }, (_, w) => `big-holder-${w + 1}@wallet.test`);
    for (const [w, email] of walletEmails.entries()) {
      await control('POST', '/wallets', {
        email,
        password: WALLET_PASSWORD,
        first_name: 'Big',
        last_name: `Holder ${w + 1}`,
      });
      const indexes = Array.from({ length: perWallet }, (_, i) => i);
      await pooled(indexes, 16, async (i) => {
        await control('POST', `/wallets/${encodeURIComponent(email)}/passes`, passOf(w, i, startOfDay));
      });
    }
    const passesSeconds = seconds(passesStarted);
    log(`${wallets} wallets × ${perWallet} passes made in the simulator in ${passesSeconds.toFixed(1)} s`);

    // The user signs in and links the wallets; the product syncs them.
    const signIn = await expectOk(
      await fetch(`${api}/v1/auth`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...DEMO_USER, token: null }),
      }),
      'sign-in',
    );
    const cookie = signIn.headers
      .getSetCookie()
      .find((c) => c.startsWith('seatlink_session='))
      ?.split(';')[0];
    if (!cookie) throw new Error('sign-in set no session cookie');
    const authed = (pathname: string, init: RequestInit = {}) =>
      fetch(`${api}${pathname}`, {
        ...init,
        headers: { 'content-type': 'application/json', cookie, ...(init.headers ?? {}) },
      });
    const syncStarted = performance.now();
    for (const email of walletEmails) {
      await expectOk(
        await authed('/v1/accounts', { method: 'POST', body: JSON.stringify({ email, password: WALLET_PASSWORD }) }),
        `linking ${email}`,
      );
    }
    const wanted = wallets * perWallet;
    const deadline = Date.now() + (options.syncTimeoutMs ?? Number(process.env.BENCH_SYNC_TIMEOUT_MS ?? 600_000));
    let count = 0;
    let lastLog = 0;
    let failedReads = 0;
    for (;;) {
      try {
        const res = await authed('/v1/tickets');
        if (res.ok) count = ((await res.json()) as TicketsResponse).tickets.length;
      } catch (err) {
        // A read that fails while the sync runs (a connection reset) is tried again; it is said, not hidden.
        failedReads++;
        log(`GET /v1/tickets failed during the sync: ${String((err as Error).cause ?? err)}`);
      }
      if (count >= wanted) break;
      if (Date.now() > deadline) {
        const accounts = await authed('/v1/accounts').then((res) => res.text(), String);
        throw new Error(`the sync listed ${count} of ${wanted} tickets before the timeout; accounts: ${accounts}`);
      }
      if (performance.now() - lastLog > 15_000) {
        log(`syncing: ${count} of ${wanted} tickets listed after ${seconds(syncStarted).toFixed(0)} s`);
        lastLog = performance.now();
      }
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
    const syncSeconds = seconds(syncStarted);
    log(
      `GET /v1/tickets counts ${count} tickets, ${syncSeconds.toFixed(1)} s after linking the wallets` +
        (failedReads > 0 ? ` (${failedReads} reads failed meanwhile)` : ''),
    );

    const makeLinks = async (n: number) => {
      const { tickets } = (await (await authed('/v1/tickets')).json()) as TicketsResponse;
      const chosen = tickets.filter((t) => !t.distribution && !t.is_duplicate).slice(0, n);
      if (chosen.length < n) throw new Error(`only ${chosen.length} tickets left to make links of`);
      const res = await expectOk(
        await authed('/v1/tickets/distribute', {
          method: 'POST',
          headers: { 'idempotency-key': `bench-links-${randomBytes(8).toString('hex')}` },
          body: JSON.stringify({ ticket_ids: chosen.map((t) => t.id), expiry_date: null, max_clicks: null }),
        }),
        'distribute',
      );
      const links = ((await res.json()) as DistributeResponse).distributions.map((d) => d.link);
      if (links.length !== n) throw new Error(`the distribution answered ${links.length} links of ${n}`);
      return links;
    };

    return {
      baseUrl,
      backend,
      cookie,
      sessionToken: cookie.slice('seatlink_session='.length),
      tickets: count,
      timings: { start: startSeconds, passes: passesSeconds, sync: syncSeconds },
      makeLinks,
      stop,
    };
  } catch (err) {
    if (server) process.stderr.write(`[product] server output:\n${server.output().slice(-4000)}\n`);
    await stop();
    throw err;
  }
}
