/**
 * Replay speed: `Projector.rebuild()` of the real read models over a feed of 100,000+ events, against a plain
 * sequential read of the same feed, in one run. Prints a table; asserts only that the rebuild is complete.
 * See bench/README.md.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../services/server/src/infra/db/database.js';
import type { NewEvent } from '../services/server/src/infra/event-store/event-store.port.js';
import { SqlEventStore } from '../services/server/src/infra/event-store/sql-event-store.js';
import { Projector } from '../services/server/src/infra/projections/projector.js';
import { creditStream } from '../services/server/src/modules/credits/credits.events.js';
import { emailClaimStream, userStream } from '../services/server/src/modules/identity/user.events.js';
import { readModels } from '../services/server/src/read-models.js';
import type { TestDatabase } from '../services/server/src/testing/test-database.js';
import { fmt, openBenchDatabase, printTable, timed } from './support.js';

const USERS = 2_000;
/** Users that get credits: fewer than all, so the balance count tells the credited users from the others. */
const CREDITED_USERS = 1_800;
const CREDITS_PER_USER = 54;
/** CreditsSet events per append: a user's credits go in in rounds, so the feed interleaves the users. */
const CREDITS_PER_APPEND = 18;
/** Appends in flight while loading the feed. */
const LOAD_CONCURRENCY = 8;
/** The projector's own batch size; the raw read uses the same. */
const READ_BATCH = 500;

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

  it('Projector.rebuild() of the real read models vs a plain read of the feed', async () => {
    const { database } = bench;
    const store = new SqlEventStore(database);
    const users = Array.from({ length: USERS }, (_, n) => ({ id: randomUUID(), email: `user${n}@bench.example.com` }));
    const load = await timed(() => loadFeed(store, users, users[0]!.id));
    const events = load.result;
    expect(events).toBe(2 * USERS + CREDITED_USERS * CREDITS_PER_USER);
    console.log(`Loaded ${fmt.int(events)} events in ${fmt.fixed(load.seconds, 1)} s (not measured).`);

    // Warm-up: one untimed pass over the feed, so both timed passes start from the same cache state.
    expect(await readWholeFeed(store)).toBe(events);

    const read = await timed(() => readWholeFeed(store));
    expect(read.result).toBe(events);

    const replay = await timed(() => new Projector(database, store, readModels).rebuild());
    expect(replay.result).toBe(events);
    expect(await count(bench, 'users')).toBe(USERS);
    expect(await count(bench, 'credit_balances')).toBe(CREDITED_USERS);
    const [balance] = await queryRows<{ balance: string }>(
      database.db,
      sql`select balance::text as balance from credit_balances where user_id = ${users[CREDITED_USERS - 1]!.id}`,
    );
    expect(Number(balance?.balance)).toBe(creditsAfter(CREDITS_PER_USER - 1));

    const readRate = read.result / read.seconds;
    const replayRate = replay.result / replay.seconds;
    printTable(
      `Replay of ${fmt.int(events)} events (${fmt.int(USERS)} users, ${fmt.int(CREDITED_USERS)} of them with ` +
        `${CREDITS_PER_USER} CreditsSet each), batches of ${READ_BATCH}, ` +
        `${database.kind === 'postgres' ? 'PostgreSQL' : 'PGlite in memory'}`,
      ['variant', 'events', 'seconds', 'events/s', '÷ raw read events/s'],
      [
        [
          'raw sequential readAll (baseline)',
          fmt.int(read.result),
          fmt.fixed(read.seconds, 2),
          fmt.int(readRate),
          '1.00',
        ],
        [
          'Projector.rebuild() (users + balances)',
          fmt.int(replay.result),
          fmt.fixed(replay.seconds, 2),
          fmt.int(replayRate),
          fmt.fixed(replayRate / readRate, 2),
        ],
      ],
    );
  });
});
