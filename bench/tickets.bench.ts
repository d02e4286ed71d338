/**
 * The tickets list of a big account, through HTTP on one `npm start`-shaped process (API, subscriptions, jobs and the
 * wallet provider's simulator in it):
 * - `sync-5000-read-p99`: the p99 of `GET /v1/tickets` (whole list, no `since`: the heaviest read, 5,000 tickets) of a
 *   user holding 5,000 tickets, read one after another from a thread of its own, while another account's first sync
 *   of 5,000 passes runs (from the link until every read model shows them); baseline: the p99 of the same reads with
 *   no sync, in the same round (the order alternates). Goal: ratio ≤ 3 (lower is better). On the embedded server, the
 *   `npm start` default; `sync-5000-read-p99-postgres` the same on PostgreSQL when DATABASE_URL is set.
 * - `tickets-payload`: bytes on the wire (brotli, as sent with `Accept-Encoding: br`, and the JSON's) of a user's
 *   10,000 tickets: the first page (limit 1,000, the dashboard's first load), all pages, and what a change costs
 *   afterwards (`since`: one ticket's link clicked; one account re-synced with one pass changed, or none); baseline:
 *   the whole list in one answer, as every change re-fetched it before. Figure: the click's answer.
 * Asserts only that the work was complete (every ticket synced, every read answered 200).
 */
import type { Account, DistributeResponse, TicketsResponse, User } from '@seatlink/contracts';
import type { WalletSimApp } from '@seatlink/wallet-sim';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE } from '../services/server/src/infra/db/database.module.js';
import type { Database } from '../services/server/src/infra/db/database.js';
import { SyncWalletAccountJob } from '../services/server/src/modules/wallet-accounts/sync-wallet-account.job.js';
import {
  ApiClient,
  startTestStack,
  subscriptionsCaughtUp,
  type TestStack,
} from '../services/server/src/testing/test-app.js';
import { testEnv } from '../services/server/src/testing/test-database.js';
import { createVerifiedUser } from '../services/server/src/testing/users.js';
import { startSim, WALLET_PASSWORD } from '../services/server/src/testing/wallet-fixture.js';
import { entryFromRounds, median, recordResults, round } from './results.js';
import { fmt, printTable, roundOrder } from './support.js';
import { bigWallet, startReader, wireBytes } from './tickets-support.js';

const PASSES = 5000;
const ROUNDS = Math.max(1, Number(process.env.BENCH_TICKETS_ROUNDS ?? 3) || 3);
const BASELINE_READS = 100;
const PAGE = 1000;
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

const p = (sorted: readonly number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((q / 100) * sorted.length) - 1)]!;
const sortedOf = (values: readonly number[]) => [...values].sort((a, b) => a - b);

const backends: Array<[label: string, embedded: boolean, name: string]> = [
  ['embedded PostgreSQL', true, 'sync-5000-read-p99'],
];
if (testEnv.databaseUrl !== testEnv.embeddedUrl && process.env.BENCH_TICKETS_POSTGRES !== '0') {
  backends.push(['PostgreSQL', false, 'sync-5000-read-p99-postgres']);
}

describe.each(backends)('the tickets list of a big account (%s)', (label, embedded, readName) => {
  let sim: WalletSimApp;
  let stack: TestStack;
  let database: Database;
  let admin: ApiClient;
  let loadAtStart: number[] = [];

  /** A user of their own, signed in. */
  const newUser = async () => {
    const made = await createVerifiedUser(stack.app);
    const client = new ApiClient(stack.baseUrl);
    const res = await client.login(made.email, made.password);
    return { client, id: (res.body.user as User).id };
  };
  /** Links a wallet of PASSES passes (made here) and resolves once every read model shows its tickets. */
  const link = async (client: ApiClient, email: string) => {
    const res = await client.request('POST', '/v1/accounts', { email, password: WALLET_PASSWORD });
    expect(res.status).toBeLessThan(300);
    return (res.body as unknown as Account).id;
  };
  const synced = async (accountId: string) => {
    for (;;) {
      const [row] = await database.query<{ n: number }>(
        'select count(*)::int as n from tickets where account_id = $1',
        [accountId],
      );
      if (row!.n >= PASSES) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    await subscriptionsCaughtUp(stack.app, 600_000);
  };

  beforeAll(async () => {
    loadAtStart = os.loadavg().map((n) => round(n, 2));
    console.log(`Load average before this file's work: ${loadAtStart.join(', ')} (1, 5, 15 min)`);
    let url: string;
    ({ sim, url } = await startSim());
    stack = await startTestStack({
      embedded,
      env: {
        WALLET_PROVIDER_URL: url,
        WALLET_SYNC_FOLLOW_UPS_MS: '',
        WALLET_SYNC_EVERY_MS: '86400000',
        LOG_LEVEL: 'error',
      },
    });
    database = stack.app.get<Database>(DATABASE);
    admin = new ApiClient(stack.baseUrl);
    await admin.login('admin@seatlink.test', 'Admin123!');
  }, 600_000);
  afterAll(async () => {
    await stack?.close();
    await sim?.close();
  });

  it(`${readName}: reads of 5,000 tickets during a ${fmt.int(PASSES)}-pass sync, against the same reads without`, async () => {
    const reader = await newUser();
    bigWallet(sim, 'reader@wallet.test', WALLET_PASSWORD, PASSES, 'reader');
    const started = performance.now();
    await synced(await link(reader.client, 'reader@wallet.test'));
    const setupSeconds = (performance.now() - started) / 1000;
    const url = `${stack.baseUrl}/v1/tickets`;
    const cookie = reader.client.sessionCookie;

    const rounds: Array<{ figure: number; baseline: number; reads: number; p50: number; base50: number; s: number }> =
      [];
    for (let r = 0; r < ROUNDS; r++) {
      let sync = { p99: 0, p50: 0, reads: 0, seconds: 0 };
      let base = { p99: 0, p50: 0 };
      for (const variant of roundOrder(r, ['baseline', 'sync'] as const)) {
        if (variant === 'baseline') {
          const { latencies, bytes } = await startReader(url, cookie, BASELINE_READS).done;
          expect(bytes).toBeGreaterThan(1_000_000);
          const sorted = sortedOf(latencies);
          base = { p99: p(sorted, 99), p50: p(sorted, 50) };
        } else {
          const syncing = await newUser();
          const email = `sync-${r}@wallet.test`;
          bigWallet(sim, email, WALLET_PASSWORD, PASSES, `sync${r}`);
          const reading = startReader(url, cookie);
          const t0 = performance.now();
          await synced(await link(syncing.client, email));
          const seconds = (performance.now() - t0) / 1000;
          const { latencies } = await reading.stop();
          const sorted = sortedOf(latencies);
          sync = { p99: p(sorted, 99), p50: p(sorted, 50), reads: latencies.length, seconds };
        }
      }
      rounds.push({
        figure: sync.p99,
        baseline: base.p99,
        reads: sync.reads,
        p50: sync.p50,
        base50: base.p50,
        s: sync.seconds,
      });
    }
    printTable(
      `GET /v1/tickets (5,000 tickets, whole list) during another account's ${fmt.int(PASSES)}-pass sync, ${label}`,
      ['round', 'reads', 'p50 ms', 'p99 ms', 'no sync p50', 'no sync p99', 'ratio p99', 'sync s'],
      rounds.map((x, i) => [
        String(i + 1),
        String(x.reads),
        fmt.int(x.p50),
        fmt.int(x.figure),
        fmt.int(x.base50),
        fmt.int(x.baseline),
        fmt.fixed(x.figure / x.baseline, 2),
        fmt.fixed(x.s, 1),
      ]),
    );
    await recordResults([
      entryFromRounds(
        readName,
        {
          unit: 'ms',
          baselineUnit: 'ms',
          baselineName: `p99 of the same reads (a user's 5,000 tickets, whole list) with no sync, ${label}`,
        },
        rounds,
        {
          goal: { field: 'ratio', atMost: 3 },
          backend: label,
          reads: 'GET /v1/tickets without since (the whole list), one after another from a thread of its own',
          p50Ms: round(median(rounds.map((x) => x.p50))),
          baselineP50Ms: round(median(rounds.map((x) => x.base50))),
          readsDuringSync: rounds.map((x) => x.reads),
          syncSeconds: rounds.map((x) => round(x.s, 1)),
          setupSyncSeconds: round(setupSeconds, 1),
          loadAverageAtStart: loadAtStart,
        },
      ),
    ]);
  }, 3_600_000);

  it.skipIf(!embedded)(
    'tickets-payload: the first load of 10,000 tickets and a change, against the whole list',
    async () => {
      const owner = await newUser();
      await admin.request('PUT', `/v1/admin/users/${owner.id}/credits`, { credits: 10, reason: 'Test' });
      const accounts: string[] = [];
      for (const tag of ['payloadA', 'payloadB']) {
        bigWallet(sim, `${tag}@wallet.test`, WALLET_PASSWORD, PASSES, tag);
        const accountId = await link(owner.client, `${tag}@wallet.test`);
        await synced(accountId);
        accounts.push(accountId);
      }
      const cookie = owner.client.sessionCookie;
      const base = `${stack.baseUrl}/v1/tickets`;
      const bytes = async (query: string) => ({
        raw: await wireBytes(`${base}${query}`, cookie, false),
        br: await wireBytes(`${base}${query}`, cookie, true),
      });
      const get = async (query: string) =>
        (await owner.client.request('GET', `/v1/tickets${query}`)).body as unknown as TicketsResponse;
      const settle = async () => {
        await subscriptionsCaughtUp(stack.app);
      };

      const whole = await bytes('');
      expect((await get('')).tickets).toHaveLength(2 * PASSES);
      const firstPage = await bytes(`?limit=${PAGE}`);
      const allPages = { raw: 0, br: 0, pages: 0 };
      let cursor: string | null | undefined;
      do {
        const query = `?limit=${PAGE}${cursor ? `&after=${cursor}` : ''}`;
        const b = await bytes(query);
        allPages.raw += b.raw;
        allPages.br += b.br;
        allPages.pages += 1;
        cursor = (await get(query)).next_cursor;
      } while (cursor);

      // A link made, then clicked once: what the click costs a dashboard holding the version before it.
      const ticket = (await get('?limit=1')).tickets[0]!;
      const made = await owner.client.request('POST', '/v1/tickets/distribute', { ticket_ids: [ticket.id] });
      const code = (made.body as unknown as DistributeResponse).distributions[0]!.link.split('/l/')[1]!;
      await settle();
      let version = (await get('?limit=1')).version;
      const claim = await fetch(`${stack.baseUrl}/v1/links/${code}/claim`, {
        method: 'POST',
        headers: { 'user-agent': BROWSER },
      });
      expect(claim.status).toBe(200);
      await settle();
      const click = await bytes(`?since=${version}`);
      expect((await get(`?since=${version}`)).tickets).toHaveLength(1);

      // One account re-synced: nothing changed in its wallet, then one pass's next game moved.
      const resync = async () => {
        await stack.app.get(SyncWalletAccountJob).run({ accountId: accounts[1]!, reason: 'bench' });
        await settle();
      };
      version = (await get('?limit=1')).version;
      await resync();
      const resyncNone = await bytes(`?since=${version}`);
      sim.walletSim.updatePass('payloadB@wallet.test', 'payloadB-7', {
        next_game: { title: 'Harbourside Athletic vs Eastbay United', date: '2026-12-12T15:00:00.000Z' },
      });
      version = (await get('?limit=1')).version;
      await resync();
      const resyncOne = await bytes(`?since=${version}`);
      expect((await get(`?since=${version}`)).tickets).toHaveLength(1);

      const kb = (n: number) => `${fmt.fixed(n / 1024, 1)} KB`;
      printTable(
        `GET /v1/tickets, a user holding ${fmt.int(2 * PASSES)} tickets: bytes on the wire`,
        ['answer', 'JSON', 'brotli', 'brotli ÷ whole list'],
        [
          ['whole list (baseline: every change before)', kb(whole.raw), kb(whole.br), '1'],
          [`first page (limit ${PAGE})`, kb(firstPage.raw), kb(firstPage.br), fmt.fixed(firstPage.br / whole.br, 3)],
          [`all ${allPages.pages} pages`, kb(allPages.raw), kb(allPages.br), fmt.fixed(allPages.br / whole.br, 3)],
          ['a change: one link clicked (since)', kb(click.raw), kb(click.br), fmt.fixed(click.br / whole.br, 4)],
          [
            'a change: an account re-synced, one pass changed',
            kb(resyncOne.raw),
            kb(resyncOne.br),
            fmt.fixed(resyncOne.br / whole.br, 4),
          ],
          [
            'a change: an account re-synced, nothing changed',
            kb(resyncNone.raw),
            kb(resyncNone.br),
            fmt.fixed(resyncNone.br / whole.br, 4),
          ],
        ],
      );
      await recordResults([
        {
          ...entryFromRounds(
            'tickets-payload',
            {
              unit: 'bytes',
              baselineUnit: 'bytes',
              baselineName: `the whole list of ${fmt.int(2 * PASSES)} tickets in one answer, brotli (what every change re-fetched)`,
            },
            [{ figure: click.br, baseline: whole.br }],
          ),
          figureName: 'a change: one ticket\u2019s link clicked, answered by since (brotli)',
          tickets: 2 * PASSES,
          pageSize: PAGE,
          wholeList: whole,
          firstPage,
          allPages,
          changeClick: click,
          changeResyncOnePass: resyncOne,
          changeResyncNothing: resyncNone,
        },
      ]);
    },
    3_600_000,
  );
});
