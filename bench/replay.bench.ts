/**
 * Replay speed: a rebuild of the real read models over a feed of 100,000+ events, against a plain sequential read of
 * the same feed, in one run: the feed is loaded once, then several rounds each read it and rebuild from it. Prints a
 * table, records `replay` in bench/results.json; asserts only that every rebuild is complete. See bench/README.md.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../services/server/src/infra/db/database.js';
import type { NewEvent } from '../services/server/src/infra/event-store/event-store.port.js';
import { SqlEventStore } from '../services/server/src/infra/event-store/sql-event-store.js';
import { SubscriptionHost } from '../services/server/src/infra/subscriptions/subscription-host.js';
import { SubscriptionOperations } from '../services/server/src/infra/subscriptions/subscription-operations.js';
import { creditStream } from '../services/server/src/modules/credits/credits.events.js';
import { emailClaimStream, userStream } from '../services/server/src/modules/identity/user.events.js';
import { balanceProjection } from '../services/server/src/modules/credits/read-models/balances/balance.projection.js';
import { usersProjection } from '../services/server/src/modules/identity/read-models/users/users.projection.js';
import { inviteCodesProjection } from '../services/server/src/modules/invites/read-models/invite-codes/invite-codes.projection.js';
import { waitlistProjection } from '../services/server/src/modules/waitlist/read-models/waitlist/waitlist.projection.js';
import type { TestDatabase } from '../services/server/src/testing/test-database.js';
import { entryFromRounds, median, recordResults } from './results.js';
import {
  backendOf,
  fmt,
  loadAverageAtStart,
  openBenchDatabase,
  printTable,
  ROUNDS,
  roundOrder,
  timed,
} from './support.js';

const USERS = 2_000;
/** Users that get credits: fewer than all, so the balance count tells the credited users from the others. */
const CREDITED_USERS = 1_800;
const CREDITS_PER_USER = 54;
/** CreditsSet events per append: a user's credits go in in rounds, so the feed interleaves the users. */
const CREDITS_PER_APPEND = 18;
/** Appends in flight while loading the feed. */
const LOAD_CONCURRENCY = 8;
/** The projector's own batch size; the raw read uses the same. */
const READ_BATCH = 2000;
const READ_MODELS = [usersProjection, balanceProjection, inviteCodesProjection, waitlistProjection];

/** Empties the read models and replays the feed into them (what `npm run replay` does when no worker runs). */
async function rebuild(bench: TestDatabase, store: SqlEventStore): Promise<number> {
  const names = READ_MODELS.map((p) => p.name);
  await new SubscriptionOperations(bench.database, store, () => READ_MODELS).reset(names);
  return new SubscriptionHost(bench.database, store, READ_MODELS, { batchSize: READ_BATCH }).drain({ names });
}

/** bcrypt/argon2-sized, as the real UserRegistered carries. */
const PASSWORD_HASH =
  '$argon2id$v=19$m=19456,t=2,p=1$c2VhdGxpbmtiZW5jaHNhbHQ$5nB3mG0xQk1z7m9bR8yV2vJq4Yw1c0Hf8sXo3rLkT6E';

interface User {
  id: string;
  email: string;
}

/** Runs the jobs with at most `concurrency` of them in flight. */
async function inParallel(concurrency: number, jobs: ReadonlyArray<() => Promise<unknown>>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < jobs.length) await jobs[next++]!();
    }),
  );
}

/** Writes the feed (not measured): per user an EmailClaimed and a UserRegistered, then rounds of CreditsSet. */
async function loadFeed(store: SqlEventStore, users: readonly User[], adminId: string): Promise<number> {
  let appended = 0;
  const append = async (streamId: string, events: NewEvent[], expectedRevision: number | 'no_stream') => {
    await store.appendToStream(streamId, events, { expectedRevision });
    appended += events.length;
  };
  const registeredAt = Date.UTC(2025, 0, 1);
  await inParallel(
    LOAD_CONCURRENCY,
    users.map((user, n) => async () => {
      const metadata = { actorId: user.id, ip: '198.51.100.23', commandId: `register:${user.id}` };
      await append(
        emailClaimStream(user.email),
        [{ id: randomUUID(), type: 'EmailClaimed', data: { email: user.email, userId: user.id }, metadata }],
        'no_stream',
      );
      const data = {
        userId: user.id,
        email: user.email,
        firstName: `First${n}`,
        lastName: `Last${n}`,
        passwordHash: PASSWORD_HASH,
        isAdmin: n === 0,
        emailVerified: n % 3 !== 0,
        registeredAt: new Date(registeredAt + n * 60_000).toISOString(),
      };
      await append(userStream(user.id), [{ id: randomUUID(), type: 'UserRegistered', data, metadata }], 'no_stream');
    }),
  );
  const credited = users.slice(0, CREDITED_USERS);
  for (let from = 0; from < CREDITS_PER_USER; from += CREDITS_PER_APPEND) {
    const count = Math.min(CREDITS_PER_APPEND, CREDITS_PER_USER - from);
    await inParallel(
      LOAD_CONCURRENCY,
      credited.map((user) => async () => {
        const events = Array.from({ length: count }, (_, k): NewEvent => {
          const i = from + k;
          return {
            id: randomUUID(),
            type: 'CreditsSet',
            data: {
              userId: user.id,
              credits: creditsAfter(i),
              previousBalance: i === 0 ? 0 : creditsAfter(i - 1),
              setBy: adminId,
              at: new Date(registeredAt + 86_400_000 + i * 3_600_000).toISOString(),
            },
            metadata: { actorId: adminId, ip: '203.0.113.7', commandId: randomUUID() },
          };
        });
        await append(creditStream(user.id), events, from === 0 ? 'no_stream' : from - 1);
      }),
    );
  }
  return appended;
}

const creditsAfter = (i: number) => (i + 1) * 25;

async function count(bench: TestDatabase, table: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(bench.database.db, sql.raw(`select count(*)::int as n from "${table}"`));
  return row!.n;
}

/** Reads the whole feed in batches, sequentially, without projecting; answers the number of events. */
async function readWholeFeed(store: SqlEventStore): Promise<number> {
  let after: string | null = null;
  let total = 0;
  for (;;) {
    const batch = await store.readAll(after, READ_BATCH);
    if (batch.length === 0) return total;
    total += batch.length;
    after = batch[batch.length - 1]!.position;
  }
}

describe('replay', () => {
  let bench: TestDatabase;
  beforeAll(async () => {
    bench = await openBenchDatabase();
  });
  afterAll(async () => bench?.dispose());

  it(`rebuild of the real read models vs a plain read of the feed, ${ROUNDS} rounds`, async () => {
    const { database } = bench;
    const backend = await backendOf(bench);
    const store = new SqlEventStore(database);
    const users = Array.from({ length: USERS }, (_, n) => ({ id: randomUUID(), email: `user${n}@bench.example.com` }));
    const load = await timed(() => loadFeed(store, users, users[0]!.id));
    const events = load.result;
    expect(events).toBe(2 * USERS + CREDITED_USERS * CREDITS_PER_USER);
    console.log(`Loaded ${fmt.int(events)} events in ${fmt.fixed(load.seconds, 1)} s (not measured).`);

    const readFeed = async () => {
      const read = await timed(() => readWholeFeed(store));
      expect(read.result).toBe(events);
      return read.seconds;
    };
    // Each read model applies the events of its types (and reads no other).
    const byType = new Map(
      (
        await queryRows<{ type: string; n: string }>(
          database.db,
          sql`select type, count(*)::text as n from events group by type`,
        )
      ).map((r) => [r.type, Number(r.n)]),
    );
    const applied = READ_MODELS.reduce(
      (sum, p) => sum + p.handles.reduce((s, type) => s + (byType.get(type) ?? 0), 0),
      0,
    );
    const rebuildAll = async () => {
      const replay = await timed(() => rebuild(bench, store));
      expect(replay.result).toBe(applied);
      expect(await count(bench, 'users')).toBe(USERS);
      expect(await count(bench, 'credit_balances')).toBe(CREDITED_USERS);
      const [balance] = await queryRows<{ balance: string }>(
        database.db,
        sql`select balance::text as balance from credit_balances where user_id = ${users[CREDITED_USERS - 1]!.id}`,
      );
      expect(Number(balance?.balance)).toBe(creditsAfter(CREDITS_PER_USER - 1));
      return replay.seconds;
    };

    // Warm-up: one untimed pass of each, so every timed pass starts from the same cache state.
    await readFeed();
    await rebuildAll();

    const seconds = { read: [] as number[], rebuild: [] as number[] };
    for (let r = 0; r < ROUNDS; r++) {
      for (const variant of roundOrder(r, ['read', 'rebuild'] as const)) {
        seconds[variant].push(variant === 'read' ? await readFeed() : await rebuildAll());
      }
    }

    const readRates = seconds.read.map((s) => events / s);
    const replayRates = seconds.rebuild.map((s) => events / s);
    const readMedian = median(readRates);
    const row = (label: string, runs: number[], rates: number[]) => [
      label,
      `${runs.length} × ${fmt.int(events)}`,
      fmt.fixed(median(runs), 2),
      fmt.int(median(rates)),
      `${fmt.int(Math.min(...rates))}–${fmt.int(Math.max(...rates))}`,
      fmt.fixed(median(rates) / readMedian, 2),
      rates.map((rate, i) => fmt.fixed(rate / readRates[i]!, 2)).join(' '),
    ];
    printTable(
      `Replay of ${fmt.int(events)} events (${fmt.int(USERS)} users, ${fmt.int(CREDITED_USERS)} of them with ` +
        `${CREDITS_PER_USER} CreditsSet each), batches of ${READ_BATCH}, ${ROUNDS} rounds of read and rebuild ` +
        `(reversed in odd rounds) after one warm-up of each, ${backend}`,
      [
        'variant',
        'runs × events',
        'median s',
        'events/s (median)',
        'events/s min–max',
        '÷ raw read events/s',
        '÷ raw read, per run',
      ],
      [
        row('raw sequential readAll (baseline)', seconds.read, readRates),
        row(`rebuild of the ${READ_MODELS.length} read models (npm run replay)`, seconds.rebuild, replayRates),
      ],
    );

    await recordResults([
      entryFromRounds(
        'replay',
        {
          unit: 'events/s',
          baselineUnit: 'events/s',
          baselineName: `raw sequential store.readAll of the same feed, batches of ${READ_BATCH}`,
        },
        replayRates.map((figure, i) => ({ figure, baseline: readRates[i]! })),
        {
          goal: { field: 'figure', atLeast: 20_000 },
          backend,
          loadAverageAtStart: loadAverageAtStart(),
          events,
          readModels: READ_MODELS.map((p) => p.name),
          batchSize: READ_BATCH,
        },
      ),
    ]);
  });
});
