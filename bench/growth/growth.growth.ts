/**
 * Growth: the product on an event log of GROWTH_EVENTS events (default 50,000,000) against the same product on one of
 * 100,000, in one run. Two scratch databases of its own, each migrated and started as the product starts (the whole
 * product in this process), their logs seeded with COPY (bench/growth/seed-log.ts): 10,000 users, most events a link's
 * clicks in the claims' monthly partitions over the last 12 months. Then, rounds of the small and the large database
 * interleaved (reversed in odd rounds):
 * - `growth-append`: SqlEventStore.appendToStream, 16 concurrent writers, a stream each (append.bench.ts (b)).
 * - `growth-claim`: claims per second of a link of that database through POST /v1/links/:code/claim, 32 connections.
 * - `growth-catch-up`: a reader catching up the last 1,000,000 events of the feed (all of them on the small one),
 *   `readAll` pages of 1,000.
 * - `growth-rebuild`: a full rebuild of the links read model (reset, then drained from the start of the feed).
 * - `growth-disk-per-claim`: bytes of the claims' partitions per LinkClicked row, once after the seed.
 * Figure: the large database's; baseline: the small one's, in the same rounds. Run by `npm run bench:growth`, apart
 * from `npm run bench`. Asserts only that the work was complete. See bench/README.md, "growth".
 */
import { randomUUID } from 'node:crypto';
import { CommandBus } from '@nestjs/cqrs';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { type DistributeResponse, type User } from '@seatlink/contracts';
import autocannon from 'autocannon';
import { afterAll, describe, expect, it } from 'vitest';
import { createHttpApp } from '../../services/server/src/bootstrap.js';
import type { AppConfig } from '../../services/server/src/infra/config/config.js';
import { type Database, openDatabase } from '../../services/server/src/infra/db/database.js';
import { SqlEventStore } from '../../services/server/src/infra/event-store/sql-event-store.js';
import { SubscriptionHost } from '../../services/server/src/infra/subscriptions/subscription-host.js';
import { SubscriptionOperations } from '../../services/server/src/infra/subscriptions/subscription-operations.js';
import { CreditsCommandMessage } from '../../services/server/src/modules/credits/credits.command.js';
import { linksProjection } from '../../services/server/src/modules/distribution/read-models/links.projection.js';
import { MODULE_ROUTINES } from '../../services/server/src/routines.js';
import { seed } from '../../services/server/src/seed.js';
import { ApiClient, subscriptionsCaughtUp, testConfig } from '../../services/server/src/testing/test-app.js';
import { testEnv } from '../../services/server/src/testing/test-database.js';
import { type BenchResult, entryFromRounds, median, recordResults, type Round } from '../results.js';
import {
  backendOf,
  fmt,
  loadAverageAtStart,
  noteLoadAtStart,
  printTable,
  ROUNDS as BENCH_ROUNDS,
  roundOrder,
  runWriters,
  timed,
} from '../support.js';
import { appendSyncedAccounts } from '../tickets-support.js';
import { growthMix, seedLog, type SeedResult, USERS } from './seed-log.js';

const LARGE_EVENTS = Math.max(100_000, Number(process.env.GROWTH_EVENTS ?? 50_000_000) || 50_000_000);
const SMALL_EVENTS = 100_000;
/** Rounds of each measure: BENCH_ROUNDS when set, 3 otherwise (a round of the large database takes minutes). */
const ROUNDS = process.env.BENCH_ROUNDS ? BENCH_ROUNDS : 3;
const WRITERS = 16;
const PER_WRITER = 500;
const WARMUP_PER_WRITER = 25;
const CLAIM_CONNECTIONS = 32;
const CLAIM_SECONDS = Number(process.env.BENCH_CLAIM_SECONDS ?? 5);
const CATCH_UP_EVENTS = 1_000_000;
const CATCH_UP_PAGE = 1_000;
/** The projector's own batch size (replay.bench.ts). */
const REBUILD_BATCH = 2_000;
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
const GOAL = { field: 'ratio', atLeast: 0.8 } as const;

type Size = 'small' | 'large';

interface Partition {
  name: string;
  bytes: number;
}

/** One of the two databases: the product running on it (while the claims are measured), its log's figures. */
interface GrowthDatabase {
  size: Size;
  target: number;
  config: AppConfig;
  drop: () => Promise<void>;
  app: NestFastifyApplication | null;
  baseUrl: string;
  database: Database | null;
  seed?: SeedResult;
  databaseBytes?: number;
  partitions?: Partition[];
  /** Bytes of the claims' partitions ÷ their rows, after the seed. */
  bytesPerClaim?: number;
  /** Codes of links of this database, one per claim round and one for the warm-up. */
  codes: string[];
}

const opened: GrowthDatabase[] = [];

const dbOf = (g: GrowthDatabase): Database => {
  if (!g.database) throw new Error(`the ${g.size} database is not open`);
  return g.database;
};

async function one<T>(database: Database, text: string, params: unknown[] = []): Promise<T> {
  const [row] = await database.query<T>(text, params);
  return row!;
}

/** Makes the database, migrates and starts the product on it (as `npm start` on PostgreSQL), seeded with its users. */
async function openGrowthDatabase(size: Size, target: number): Promise<GrowthDatabase> {
  const { config, drop } = await testConfig({ env: { LOG_LEVEL: 'error', READ_MODEL_WAIT_MS: '10000' } });
  const g: GrowthDatabase = { size, target, config, drop, app: null, baseUrl: '', database: null, codes: [] };
  opened.push(g);
  await startProduct(g);
  await seed(g.app!);
  // Enough for the writers and no more: two products and these two pools share the server's connections.
  g.database = await openDatabase({ url: config.DATABASE_URL!, poolSize: WRITERS + 2, routines: MODULE_ROUTINES });
  // Named, so a run killed before its end (which drops it) leaves a database one can find and drop.
  console.log(`The ${size} database: ${new URL(config.DATABASE_URL!).pathname.slice(1)}`);
  // Every subscription past the demo's events: the seed's events come before them in the feed, so the product running
  // here does not read them (the rebuild below does).
  await subscriptionsCaughtUp(g.app!, 120_000);
  await stopProduct(g);
  return g;
}

/**
 * Starts the product on the database (the whole of it in this process, as `npm start` runs it). One runs at a time:
 * the PostgreSQL server's connections are shared with whatever else runs on the machine.
 */
async function startProduct(g: GrowthDatabase): Promise<NestFastifyApplication> {
  g.app = await createHttpApp(g.config, 'all');
  await g.app.listen({ port: 0, host: '127.0.0.1' });
  const address = g.app.getHttpServer().address();
  g.baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return g.app;
}

async function stopProduct(g: GrowthDatabase): Promise<void> {
  const app = g.app;
  g.app = null;
  await app?.close();
}

/** The months of the last year for the claims, then the log seeded; sizes measured after VACUUM ANALYZE. */
async function seedGrowthDatabase(g: GrowthDatabase): Promise<void> {
  const database = dbOf(g);
  const total = await timed(async () => {
    await database.query(`select seatlink_make_claim_partitions(now() - interval '12 months', now())`);
    return seedLog(g.config.DATABASE_URL!, g.target, new Date());
  });
  g.seed = { ...total.result, seconds: total.seconds };
  const { bytes } = await one<{ bytes: string }>(
    database,
    'select pg_database_size(current_database())::text as bytes',
  );
  g.databaseBytes = Number(bytes);
  const leaves = await database.query<{ name: string; bytes: string }>(
    `select relid::text as name, pg_total_relation_size(relid)::text as bytes
     from pg_partition_tree('events') where isleaf order by 1`,
  );
  g.partitions = leaves.map((p) => ({ name: p.name, bytes: Number(p.bytes) }));
  const { n } = await one<{ n: string }>(database, 'select count(*)::text as n from events_claims');
  expect(Number(n)).toBe(g.seed.clicks);
  const claimsBytes = g.partitions.filter((p) => p.name.startsWith('events_claims')).reduce((s, p) => s + p.bytes, 0);
  g.bytesPerClaim = claimsBytes / Number(n);
}

/**
 * Links for the claims, made the way a holder makes them (distribution.bench.ts): a wallet account's passes recorded
 * in one append, the tickets listed, one link per ticket distributed through the API.
 */
async function makeLinks(g: GrowthDatabase, count: number): Promise<void> {
  const app = await startProduct(g);
  const user = new ApiClient(g.baseUrl);
  const userId = ((await user.login('user@seatlink.test', 'User1234!')).body.user as User).id;
  await app.get(CommandBus).execute(
    new CreditsCommandMessage(
      {
        type: 'SetCredits',
        data: { userId, credits: 1_000_000, setBy: userId, reason: 'Benchmark', now: new Date().toISOString() },
      },
      { actorId: userId },
    ),
  );
  await appendSyncedAccounts(new SqlEventStore(dbOf(g)), { userId, accounts: 1, passes: count, tag: 'g' });
  await subscriptionsCaughtUp(app, 120_000);
  const tickets = (await user.request('GET', '/v1/tickets')).body.tickets as Array<{ id: string }>;
  expect(tickets).toHaveLength(count);
  const res = await user.request(
    'POST',
    '/v1/tickets/distribute',
    { ticket_ids: tickets.map((t) => t.id), max_clicks: null },
    { headers: { 'idempotency-key': randomUUID() } },
  );
  if (res.status !== 200) throw new Error(`distribute: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
  g.codes = (res.body as unknown as DistributeResponse).distributions.map((d) => d.link.split('/l/')[1]!);
  expect(g.codes).toHaveLength(count);
  await stopProduct(g);
}

/** 16 writers, each appending one event at a time to a stream of its own; answers appends per second. */
async function appendRun(g: GrowthDatabase, prefix: string, perWriter: number): Promise<number> {
  const store = new SqlEventStore(dbOf(g));
  const revisions = new Array<number>(WRITERS).fill(-1);
  const users = Array.from({ length: WRITERS }, () => randomUUID());
  const run = await runWriters(WRITERS, perWriter, async (writer, i) => {
    const revision = revisions[writer]!;
    const userId = users[writer]!;
    const result = await store.appendToStream(
      `${prefix}-${writer}`,
      [
        {
          id: randomUUID(),
          // CreditsSet's data under a type no subscription reads: the product running on the database (for the claims)
          // projects none of these appends, so they measure the log alone, as append.bench.ts does.
          type: 'GrowthAppended',
          data: { userId, credits: (i + 1) * 10, previousBalance: i * 10, setBy: userId, at: new Date() },
          metadata: { actorId: userId, ip: '203.0.113.7', commandId: randomUUID() },
        },
      ],
      { expectedRevision: revision === -1 ? 'no_stream' : revision },
    );
    revisions[writer] = result.nextRevision;
  });
  for (let w = 0; w < WRITERS; w++) expect(revisions[w]).toBe(perWriter - 1);
  return run.operations / run.seconds;
}

/** Claims of one of the database's links for CLAIM_SECONDS under 32 connections; answers claims per second. */
async function claimRun(g: GrowthDatabase, code: string, seconds: number): Promise<{ rate: number; p99: number }> {
  const result = await autocannon({
    url: `${g.baseUrl}/v1/links/${code}/claim`,
    method: 'POST',
    headers: { 'user-agent': BROWSER },
    connections: CLAIM_CONNECTIONS,
    duration: seconds,
  });
  expect(result.non2xx + result.errors).toBe(0);
  return { rate: result['2xx'] / (result.duration || seconds), p99: result.latency.p99 };
}

/** Where a reader starts that has the last `events` events of the feed to read (null: the start). */
async function positionBeforeLast(database: Database, events: number): Promise<string | null> {
  const [row] = await database.query<{ epoch: number; tx: string; pos: string }>(
    `select epoch, transaction_id::text as tx, global_position::text as pos from events
     order by epoch desc, transaction_id desc, global_position desc offset $1 limit 1`,
    [events],
  );
  return row ? `${row.epoch}:${row.tx}:${row.pos}` : null;
}

/** Reads the feed from `after` to its end in pages of 1,000; answers the events read. */
async function catchUp(database: Database, after: string | null): Promise<number> {
  const store = new SqlEventStore(database);
  let total = 0;
  for (;;) {
    const page = await store.readAll(after, CATCH_UP_PAGE);
    if (page.length === 0) return total;
    total += page.length;
    after = page[page.length - 1]!.position;
  }
}

/** Empties the links read model and rebuilds it from the whole feed (replay.bench.ts's rebuild, this model alone). */
async function rebuildLinks(database: Database): Promise<number> {
  const store = new SqlEventStore(database);
  await new SubscriptionOperations(database, store, () => [linksProjection]).reset([linksProjection.name]);
  return new SubscriptionHost(database, store, [linksProjection], { batchSize: REBUILD_BATCH }).drain({
    names: [linksProjection.name],
    deadlineMs: 24 * 3_600_000,
  });
}

const mb = (bytes: number) => `${fmt.fixed(bytes / 1024 / 1024, 1)} MB`;

describe.skipIf(!testEnv.databaseUrl)('growth: the product on a log of GROWTH_EVENTS events', () => {
  afterAll(async () => {
    // Dropped whatever happened (a database of 50 million events holds tens of GB).
    for (const g of opened) {
      await g.app?.close().catch((err: unknown) => console.error(`closing the ${g.size} product:`, err));
      await g.database?.close().catch(() => undefined);
      await g.drop().catch((err: unknown) => console.error(`dropping the ${g.size} database:`, err));
    }
  });

  it(`small (${fmt.int(SMALL_EVENTS)}) and large (${fmt.int(LARGE_EVENTS)}) logs, ${ROUNDS} rounds`, async () => {
    noteLoadAtStart();
    const small = await openGrowthDatabase('small', SMALL_EVENTS);
    const large = await openGrowthDatabase('large', LARGE_EVENTS);
    const both = [small, large];
    const backend = await backendOf({
      database: dbOf(small),
      url: small.config.DATABASE_URL!,
      dispose: async () => {},
    });
    const mix = growthMix(LARGE_EVENTS);
    console.log(
      `Seeding: ${fmt.int(USERS)} users; the large log ${fmt.int(mix.registrations)} registrations, ` +
        `${fmt.int(mix.credits)} CreditsSet, ${fmt.int(mix.links)} links, ${fmt.int(mix.clicks)} clicks`,
    );

    // 1. The logs, seeded one after the other (not measured against each other).
    for (const g of both) await seedGrowthDatabase(g);
    printTable(
      `Seed by COPY into events_main and events_claims (routed to its months), then VACUUM ANALYZE events; ${backend}`,
      ['database', 'events', 'links', 'clicks', 'COPY s', 'events/s', 'VACUUM ANALYZE s', 'total s', 'database size'],
      both.map((g) => [
        g.size,
        fmt.int(g.seed!.events),
        fmt.int(g.seed!.links),
        fmt.int(g.seed!.clicks),
        fmt.fixed(g.seed!.copySeconds, 1),
        fmt.int(g.seed!.events / g.seed!.copySeconds),
        fmt.fixed(g.seed!.vacuumSeconds, 1),
        fmt.fixed(g.seed!.seconds, 1),
        mb(g.databaseBytes!),
      ]),
    );
    printTable(
      'Partitions of events (pg_total_relation_size: rows, indexes, TOAST)',
      ['partition', 'small', 'large'],
      large.partitions!.map((p) => [
        p.name,
        mb(small.partitions!.find((s) => s.name === p.name)?.bytes ?? 0),
        mb(p.bytes),
      ]),
    );

    const extra = (fields: Record<string, unknown> = {}) => ({
      goal: GOAL,
      events: large.seed!.events,
      baselineEvents: small.seed!.events,
      databaseBytes: large.databaseBytes,
      baselineDatabaseBytes: small.databaseBytes,
      partitionBytes: {
        events_main: large.partitions!.find((p) => p.name === 'events_main')?.bytes ?? 0,
        events_claims: large
          .partitions!.filter((p) => p.name.startsWith('events_claims'))
          .reduce((s, p) => s + p.bytes, 0),
      },
      backend,
      loadAverageAtStart: loadAverageAtStart(),
      ...fields,
    });
    const entries: BenchResult[] = [];
    /**
     * The rounds of one measure; its entry is recorded after every round (the rounds so far), so a run stopped before
     * its end keeps what it measured.
     */
    const measure = async (
      name: string,
      run: (g: GrowthDatabase, round: number) => Promise<number>,
      entryOf: (rounds: readonly Round[]) => BenchResult,
    ): Promise<Round[]> => {
      const rounds: Round[] = [];
      for (let r = 0; r < ROUNDS; r++) {
        const rate: Partial<Record<Size, number>> = {};
        for (const g of roundOrder(r, both)) rate[g.size] = await run(g, r);
        rounds.push({ figure: rate.large!, baseline: rate.small! });
        console.log(`${name} round ${r + 1}: large ${fmt.int(rate.large!)}, small ${fmt.int(rate.small!)}`);
        await recordResults([entryOf(rounds)]);
      }
      entries.push(entryOf(rounds));
      return rounds;
    };
    const roundsTable = (title: string, unit: string, rounds: readonly Round[]) =>
      printTable(
        title,
        ['round', `large ${unit}`, `small ${unit}`, 'large ÷ small'],
        rounds.map((x, i) => [
          String(i + 1),
          fmt.int(x.figure),
          fmt.int(x.baseline),
          fmt.fixed(x.figure / x.baseline, 2),
        ]),
      );

    // Disk per claim, after the seed (recorded at once).
    const diskExtra: Record<string, unknown> = extra({
      clicks: large.seed!.clicks,
      baselineClicks: small.seed!.clicks,
      partitions: Object.fromEntries(large.partitions!.map((p) => [p.name, p.bytes])),
    });
    // No goal: a figure to watch, not to reach.
    delete diskExtra.goal;
    const disk = entryFromRounds(
      'growth-disk-per-claim',
      {
        unit: 'bytes',
        baselineUnit: 'bytes',
        baselineName: `the claims' partitions of the log of ${fmt.int(SMALL_EVENTS)} events, per LinkClicked row`,
      },
      [{ figure: large.bytesPerClaim!, baseline: small.bytesPerClaim! }],
      diskExtra,
    );
    entries.push(disk);
    await recordResults([disk]);

    // 2a. Appends, 16 writers on streams of their own, after one warm-up on each.
    for (const g of both) await appendRun(g, `growth-warmup-${g.size}`, WARMUP_PER_WRITER);
    const appends = await measure(
      'growth-append',
      (g, r) => appendRun(g, `growth-append-${g.size}-r${r}`, PER_WRITER),
      (rounds) =>
        entryFromRounds(
          'growth-append',
          {
            unit: 'appends/s',
            baselineUnit: 'appends/s',
            baselineName: `the same appends on a log of ${fmt.int(SMALL_EVENTS)} events`,
          },
          rounds,
          extra({ writers: WRITERS, operationsPerRun: WRITERS * PER_WRITER }),
        ),
    );
    roundsTable(`growth-append: ${WRITERS} writers × ${PER_WRITER} appends, a stream each`, 'appends/s', appends);

    // 2b. Claims, a link of each database per round, after one warm-up on each.
    // Each run starts the product on its database, warms it up on a link of its own for 2 s, claims another link and
    // stops it: links 2r and 2r + 1 in round r.
    for (const g of both) await makeLinks(g, 2 * ROUNDS);
    const p99s: Record<Size, number[]> = { small: [], large: [] };
    const claims = await measure(
      'growth-claim',
      async (g, r) => {
        await startProduct(g);
        try {
          await claimRun(g, g.codes[2 * r]!, 2);
          const { rate, p99 } = await claimRun(g, g.codes[2 * r + 1]!, CLAIM_SECONDS);
          p99s[g.size].push(p99);
          return rate;
        } finally {
          await stopProduct(g);
        }
      },
      (rounds) =>
        entryFromRounds(
          'growth-claim',
          {
            unit: 'claims/s',
            baselineUnit: 'claims/s',
            baselineName: `the same claims on a log of ${fmt.int(SMALL_EVENTS)} events`,
          },
          rounds,
          extra({ connections: CLAIM_CONNECTIONS, p99Ms: median(p99s.large), baselineP99Ms: median(p99s.small) }),
        ),
    );
    roundsTable(
      `growth-claim: claims of one unlimited link, ${CLAIM_CONNECTIONS} connections, ${CLAIM_SECONDS} s a run`,
      'claims/s',
      claims,
    );

    // The reads and the rebuild below run with no product on their databases (no live subscription of links competes
    // with the rebuild).

    // 2c. A reader catching up the last million events (all of them on the small log).
    const starts = new Map<Size, string | null>();
    const expected = new Map<Size, number>();
    for (const g of both) {
      const { n } = await one<{ n: string }>(dbOf(g), 'select count(*)::text as n from events');
      expected.set(g.size, Math.min(Number(n), CATCH_UP_EVENTS));
      starts.set(g.size, Number(n) > CATCH_UP_EVENTS ? await positionBeforeLast(dbOf(g), CATCH_UP_EVENTS) : null);
    }
    await catchUp(dbOf(small), starts.get('small')!);
    const readRounds = await measure(
      'growth-catch-up',
      async (g) => {
        const read = await timed(() => catchUp(dbOf(g), starts.get(g.size)!));
        expect(read.result).toBe(expected.get(g.size));
        return read.result / read.seconds;
      },
      (rounds) =>
        entryFromRounds(
          'growth-catch-up',
          {
            unit: 'events/s',
            baselineUnit: 'events/s',
            baselineName: `the whole feed of the log of ${fmt.int(SMALL_EVENTS)} events (${fmt.int(expected.get('small')!)})`,
          },
          rounds,
          extra({
            eventsRead: expected.get('large'),
            baselineEventsRead: expected.get('small'),
            pageSize: CATCH_UP_PAGE,
          }),
        ),
    );
    roundsTable(
      `growth-catch-up: readAll pages of ${fmt.int(CATCH_UP_PAGE)}, the last ${fmt.int(expected.get('large')!)} ` +
        `events (small: all ${fmt.int(expected.get('small')!)})`,
      'events/s',
      readRounds,
    );

    // 2d. Full rebuilds of the links read model.
    const feed = new Map<Size, { events: number; links: number; clicks: number }>();
    for (const g of both) {
      const database = dbOf(g);
      const [{ n }, { links }, { clicks }] = await Promise.all([
        one<{ n: string }>(database, 'select count(*)::text as n from events'),
        one<{ links: string }>(
          database,
          `select count(*)::text as links from events_main where type = 'TicketDistributed'`,
        ),
        one<{ clicks: string }>(database, 'select count(*)::text as clicks from events_claims'),
      ]);
      feed.set(g.size, { events: Number(n), links: Number(links), clicks: Number(clicks) });
    }
    const rebuildSeconds: Record<Size, number[]> = { small: [], large: [] };
    const rebuilds = await measure(
      'growth-rebuild',
      async (g) => {
        const database = dbOf(g);
        const counts = feed.get(g.size)!;
        const rebuild = await timed(() => rebuildLinks(database));
        expect(rebuild.result).toBe(counts.links + counts.clicks);
        const row = await one<{ links: string; clicks: string }>(
          database,
          'select count(*)::text as links, coalesce(sum(clicks), 0)::text as clicks from links',
        );
        expect(Number(row.links)).toBe(counts.links);
        expect(Number(row.clicks)).toBe(counts.clicks);
        rebuildSeconds[g.size].push(rebuild.seconds);
        return counts.events / rebuild.seconds;
      },
      (rounds) =>
        entryFromRounds(
          'growth-rebuild',
          {
            unit: 'events/s',
            baselineUnit: 'events/s',
            baselineName: `the same rebuild on the log of ${fmt.int(SMALL_EVENTS)} events`,
          },
          rounds,
          extra({
            feedEvents: feed.get('large')!.events,
            baselineFeedEvents: feed.get('small')!.events,
            links: feed.get('large')!.links,
            seconds: Math.round(median(rebuildSeconds.large) * 10) / 10,
            baselineSeconds: Math.round(median(rebuildSeconds.small) * 10) / 10,
            batchSize: REBUILD_BATCH,
          }),
        ),
    );
    roundsTable(
      `growth-rebuild: the links read model rebuilt from the whole feed (large: ${fmt.int(feed.get('large')!.events)} ` +
        `events, ${fmt.int(feed.get('large')!.links)} links; small: ${fmt.int(feed.get('small')!.events)})`,
      'events/s',
      rebuilds,
    );

    printTable(
      'Results (figure: the large log; baseline: the small one)',
      ['name', 'figure', 'baseline', 'ratio', 'goal'],
      entries.map((e) => [
        e.name,
        `${fmt.int(e.figure)} ${e.unit}`,
        `${fmt.int(e.baseline)} ${e.baselineUnit ?? e.unit}`,
        fmt.fixed(e.ratio, 3),
        e.goal ? `ratio ≥ ${e.goal.atLeast}: ${e.goal.met ? 'met' : 'not met'}` : '—',
      ]),
    );
  }, 86_400_000);
});
