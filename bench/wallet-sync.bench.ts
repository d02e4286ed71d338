/**
 * Wallet syncs against the provider's rate limit: 1,000 linked accounts × 50 passes, synced by two workers (BullMQ on
 * Redis when REDIS_URL is set, else one process's in-process queue) through the simulated provider over HTTP, which
 * allows `PROVIDER_RPS` calls a second. Figure: accounts synced per second; baseline: the provider's limit (one
 * listing call per account: the most accounts a second it lets through); ratio: how close the workers get to it.
 * Asserts only that every account was synced with all its passes.
 */
import { randomBytes } from 'node:crypto';
import type { INestApplicationContext } from '@nestjs/common';
import { createWalletSim, type WalletSimApp } from '@seatlink/wallet-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '../services/server/src/bootstrap.js';
import { loadConfig } from '../services/server/src/infra/config/config.js';
import { DATABASE } from '../services/server/src/infra/db/database.module.js';
import type { Database } from '../services/server/src/infra/db/database.js';
import { EVENT_STORE, type EventStore } from '../services/server/src/infra/event-store/event-store.port.js';
import { TokenCipher } from '../services/server/src/infra/wallet/token-cipher.js';
import { seed } from '../services/server/src/seed.js';
import { handleCommand } from '../services/server/src/shared/event-sourcing/aggregate-handler.js';
import { walletAccountDecider } from '../services/server/src/modules/wallet-accounts/wallet-account.decider.js';
import { walletAccountStream } from '../services/server/src/modules/wallet-accounts/wallet-account.events.js';
import { createScratchDatabase, testEnv } from '../services/server/src/testing/test-database.js';
import { entryFromRounds, recordResults } from './results.js';
import { fmt, loadAverageAtStart, printTable } from './support.js';

const ACCOUNTS = Number(process.env.BENCH_SYNC_ACCOUNTS ?? 1000);
const PASSES = 50;
const PROVIDER_RPS = 100;
const WORKERS = 2;

describe.skipIf(!testEnv.databaseUrl)('wallet syncs against the provider rate limit', () => {
  let sim: WalletSimApp;
  let drop: () => Promise<void> = async () => undefined;
  const workers: INestApplicationContext[] = [];

  beforeAll(async () => {
    sim = createWalletSim({ env: {}, rateLimit: { requestsPerSecond: PROVIDER_RPS } });
    await sim.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    for (const w of workers) await w.close();
    await sim?.close();
    await drop();
  });

  it(`${ACCOUNTS} accounts × ${PASSES} passes, ${WORKERS} workers, provider limit ${PROVIDER_RPS}/s`, async () => {
    const address = sim.server.address();
    const simUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    const scratch = await createScratchDatabase(testEnv.databaseUrl!);
    drop = scratch.drop;
    const key = randomBytes(32).toString('base64');
    const config = loadConfig(
      {
        DATABASE_URL: scratch.url,
        ...(testEnv.redisUrl ? { REDIS_URL: testEnv.redisUrl } : {}),
        REDIS_PREFIX: `bsync${randomBytes(4).toString('hex')}`,
        WALLET_PROVIDER_URL: simUrl,
        WALLET_TOKEN_KEY: key,
        WALLET_PROVIDER_RPS: String(PROVIDER_RPS),
        WALLET_SYNC_FOLLOW_UPS_MS: '',
        WALLET_SYNC_EVERY_MS: '86400000',
        SEED_DEMO_WALLETS: 'false',
        LOG_LEVEL: 'error',
      },
      { webDist: null, DATA_DIR: './data' },
    );

    // Set up (not measured): wallets in the provider, accounts linked in Seatlink with their tokens kept, while no
    // worker runs — so every sync is queued, waiting for the workers to start.
    const seeder = await createContext(config, 'worker');
    await seeder.init();
    await seed(seeder);
    await seeder.close();
    const cli = await createContext(config, 'cli');
    await cli.init();
    const database = cli.get<Database>(DATABASE);
    const store = cli.get<EventStore>(EVENT_STORE);
    const [owner] = await database.query<{ id: string }>(`select id from users where email = 'user@seatlink.test'`);
    const cipher = new TokenCipher(Buffer.from(key, 'base64'));
    const walletSim = sim.walletSim;
    const accountIds: string[] = [];
    for (let i = 0; i < ACCOUNTS; i++) {
      const email = `bench${i}@wallet.test`;
      walletSim.createWallet({ email, password: 'Wallet123!', first_name: 'Bench', last_name: `${i}` });
      for (let p = 0; p < PASSES; p++) {
        walletSim.addPass(email, {
          id: `b${i}-${p}`,
          barcode: `BC-${i}-${p}`,
          event: { title: `Match ${p}`, subtitle: 'Premier Division' },
          venue: { name: 'Quayside Stadium' },
          seat: { section: String(p % 10), row: 'A', seat: String(p) },
          visible_after_ms: 0,
        });
      }
      const session = walletSim.login(email, 'Wallet123!');
      const accountId = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
      accountIds.push(accountId);
      await database.query(
        `insert into wallet_credentials (account_id, sealed_token, expires_at, updated_at) values ($1, $2, $3, now())`,
        [accountId, cipher.encrypt(session.token), new Date(session.expiresAt)],
      );
      await handleCommand(
        store,
        walletAccountDecider,
        walletAccountStream(accountId),
        {
          type: 'LinkAccount',
          data: {
            accountId,
            userId: owner!.id,
            email,
            providerAccountId: session.account.id,
            firstName: 'Bench',
            lastName: `${i}`,
            displayName: `Bench ${i}`,
            now: new Date().toISOString(),
          },
        },
        { metadata: {}, commandId: `bench-link-${i}` },
      );
    }
    await cli.close();
    walletSim.resetStats();

    // Measured: from the workers' start until every account has a completed sync.
    const started = performance.now();
    for (let w = 0; w < WORKERS; w++) {
      const worker = await createContext(config, 'worker');
      await worker.init();
      workers.push(worker);
    }
    const watch = workers[0]!.get<Database>(DATABASE);
    for (;;) {
      const [row] = await watch.query<{ n: number }>(
        'select count(*)::int as n from wallet_sync_state where last_synced_at is not null',
      );
      if (row!.n >= ACCOUNTS) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const seconds = (performance.now() - started) / 1000;
    const [discovered] = await watch.query<{ n: number }>(
      `select count(*)::int as n from events where type = 'TicketDiscovered'`,
    );
    expect(discovered!.n).toBe(ACCOUNTS * PASSES);
    const stats = walletSim.stats;

    const rate = ACCOUNTS / seconds;
    printTable(
      `Wallet syncs: ${fmt.int(ACCOUNTS)} accounts × ${PASSES} passes, ${WORKERS} workers ` +
        `(${testEnv.redisUrl ? 'BullMQ on Redis' : 'in-process queue'}), provider limit ${PROVIDER_RPS} calls/s`,
      ['figure', 'value'],
      [
        ['seconds until every account was synced', fmt.fixed(seconds, 1)],
        ['accounts synced per second', fmt.fixed(rate, 1)],
        ['÷ provider limit (one listing per account)', fmt.fixed(rate / PROVIDER_RPS, 2)],
        ['calls made / refused with 429', `${fmt.int(stats.total)} / ${fmt.int(stats.rate_limited)}`],
        ['tickets discovered', fmt.int(discovered!.n)],
      ],
    );
    await recordResults([
      {
        ...entryFromRounds(
          'sync-1000-accounts',
          {
            unit: 'accounts/s',
            baselineUnit: 'calls/s',
            baselineName: `the provider's rate limit (one listing call per account of ${PASSES} passes)`,
          },
          [{ figure: rate, baseline: PROVIDER_RPS }],
          // The workers keep up with the provider: the sync's own cost per pass is not what limits it.
          { goal: { field: 'ratio', atLeast: 0.8 } },
        ),
        accounts: ACCOUNTS,
        passesPerAccount: PASSES,
        workers: WORKERS,
        seconds: Math.round(seconds * 10) / 10,
        providerCalls: stats.total,
        providerRefusals: stats.rate_limited,
        queue: testEnv.redisUrl ? 'BullMQ' : 'in-process',
        loadAverageAtStart: loadAverageAtStart(),
      },
    ]);
  });
});
