/**
 * Append throughput of the SQL event store against raw single-row INSERTs on the same database, in one run.
 * Prints a table; asserts only that every write landed. See bench/README.md.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, queryRows } from '../services/server/src/infra/db/database.js';
import {
  type NewEvent,
  WrongExpectedRevisionError,
} from '../services/server/src/infra/event-store/event-store.port.js';
import { SqlEventStore } from '../services/server/src/infra/event-store/sql-event-store.js';
import type { TestDatabase } from '../services/server/src/testing/test-database.js';
import { fmt, openBenchDatabase, percentile, POOL_SIZE, printTable, type RunResult, runWriters } from './support.js';

const WRITERS = 16;
const PER_WRITER = 500;
const WARMUP_PER_WRITER = 25;
const SHARED_STREAMS = 4;
/**
 * Fewer operations for (c): every attempt reads its whole stream (as the command handlers do), so the cost grows with
 * the stream; at 500 each, the streams reach 2,000 events and the variant alone takes minutes.
 */
const SHARED_PER_WRITER = 125;
const MAX_ATTEMPTS = 1_000;

const ADMIN_ID = randomUUID();
const USER_IDS = Array.from({ length: WRITERS }, () => randomUUID());

/** The data of a CreditsSet event, the most frequent event of the app; the raw rows carry the same JSON. */
function creditsData(writer: number, i: number) {
  return {
    userId: USER_IDS[writer]!,
    credits: (i + 1) * 10,
    previousBalance: i * 10,
    setBy: ADMIN_ID,
    at: new Date().toISOString(),
  };
}

function creditsSet(writer: number, i: number): NewEvent {
  return {
    id: randomUUID(),
    type: 'CreditsSet',
    data: creditsData(writer, i),
    metadata: { actorId: ADMIN_ID, ip: '203.0.113.7', commandId: randomUUID() },
  };
}

/** Raw single-row INSERTs, autocommit: a `pg.Pool` of the store's size on PostgreSQL, the same PGlite otherwise. */
interface RawInserter {
  insert(name: string, data: unknown): Promise<void>;
  count(): Promise<number>;
  close(): Promise<void>;
}

const CREATE_RAW = 'create table bench_raw (id bigserial primary key, name text not null, data jsonb not null)';

async function rawInserter(bench: TestDatabase): Promise<RawInserter> {
  if (bench.url) {
    const pool = new pg.Pool({ connectionString: bench.url, max: POOL_SIZE });
    pool.on('error', () => undefined);
    await pool.query(CREATE_RAW);
    return {
      insert: async (name, data) => {
        await pool.query('insert into bench_raw (name, data) values ($1, $2)', [name, JSON.stringify(data)]);
      },
      count: async () => (await pool.query<{ n: number }>('select count(*)::int as n from bench_raw')).rows[0]!.n,
      close: () => pool.end(),
    };
  }
  const { db } = bench.database;
  await db.execute(sql.raw(CREATE_RAW));
  return {
    insert: async (name, data) => {
      await db.execute(sql`insert into bench_raw (name, data) values (${name}, ${JSON.stringify(data)}::jsonb)`);
    },
    count: async () => (await queryRows<{ n: number }>(db, sql`select count(*)::int as n from bench_raw`))[0]!.n,
    close: async () => undefined,
  };
}

async function countEvents(database: Database, streamPrefix: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    database.db,
    sql`select count(*)::int as n from events where stream_id like ${`${streamPrefix}%`}`,
  );
  return row!.n;
}

describe('append throughput', () => {
  let bench: TestDatabase;
  beforeAll(async () => {
    bench = await openBenchDatabase();
  });
  afterAll(async () => bench?.dispose());

  it(`${WRITERS} concurrent writers: raw INSERT vs event-store append`, async () => {
    const { database } = bench;
    const store = new SqlEventStore(database);

    // (a) Baseline: raw single-row INSERTs through the same driver.
    const raw = await rawInserter(bench);
    let rawResult: RunResult;
    try {
      const insert = (writer: number, i: number) => raw.insert(`writer-${writer}`, creditsData(writer, i));
      await runWriters(WRITERS, WARMUP_PER_WRITER, insert);
      rawResult = await runWriters(WRITERS, PER_WRITER, insert);
      expect(await raw.count()).toBe(WRITERS * (WARMUP_PER_WRITER + PER_WRITER));
    } finally {
      await raw.close();
    }

    // (b) One stream per writer, one event per append, with the expected revision.
    const ownStreams = (prefix: string) => {
      const revisions = new Array<number>(WRITERS).fill(-1);
      return async (writer: number, i: number) => {
        const revision = revisions[writer]!;
        const result = await store.appendToStream(`${prefix}-${writer}`, [creditsSet(writer, i)], {
          expectedRevision: revision === -1 ? 'no_stream' : revision,
        });
        revisions[writer] = result.nextRevision;
      };
    };
    await runWriters(WRITERS, WARMUP_PER_WRITER, ownStreams('warmup-own'));
    const ownResult = await runWriters(WRITERS, PER_WRITER, ownStreams('bench-own'));
    expect(await countEvents(database, 'bench-own-')).toBe(WRITERS * PER_WRITER);
    for (let w = 0; w < WRITERS; w++) expect((await store.readStream(`bench-own-${w}`)).revision).toBe(PER_WRITER - 1);

    // (c) Writers contending on a few shared streams: read, append with the revision read, retry on a conflict.
    let retries = 0;
    const sharedStreams = (prefix: string) => async (writer: number, i: number) => {
      const streamId = `${prefix}-${writer % SHARED_STREAMS}`;
      for (let attempt = 1; ; attempt++) {
        const { revision } = await store.readStream(streamId);
        try {
          await store.appendToStream(streamId, [creditsSet(writer, i)], {
            expectedRevision: revision === -1 ? 'no_stream' : revision,
          });
          return;
        } catch (err) {
          if (!(err instanceof WrongExpectedRevisionError) || attempt >= MAX_ATTEMPTS) throw err;
          retries++;
        }
      }
    };
    await runWriters(WRITERS, WARMUP_PER_WRITER, sharedStreams('warmup-shared'));
    retries = 0;
    const sharedResult = await runWriters(WRITERS, SHARED_PER_WRITER, sharedStreams('bench-shared'));
    expect(await countEvents(database, 'bench-shared-')).toBe(WRITERS * SHARED_PER_WRITER);

    const rawOps = rawResult.operations / rawResult.seconds;
    const row = (label: string, r: RunResult) => {
      const ops = r.operations / r.seconds;
      return [
        label,
        fmt.int(r.operations),
        fmt.fixed(r.seconds, 2),
        fmt.int(ops),
        fmt.fixed(percentile(r.latencies, 50), 2),
        fmt.fixed(percentile(r.latencies, 95), 2),
        fmt.fixed(ops / rawOps, 2),
      ];
    };
    printTable(
      `Append, ${WRITERS} concurrent writers, ${PER_WRITER} operations each ((c): ${SHARED_PER_WRITER}) ` +
        `after ${WARMUP_PER_WRITER} each of warm-up, ` +
        `${database.kind === 'postgres' ? `PostgreSQL, pools of ${POOL_SIZE}` : 'PGlite in memory'}`,
      ['variant', 'operations', 'seconds', 'ops/s', 'p50 ms', 'p95 ms', '÷ raw INSERT ops/s'],
      [
        row('(a) raw single-row INSERT (baseline)', rawResult),
        row('(b) event store, own stream per writer', ownResult),
        row(`(c) event store, ${SHARED_STREAMS} shared streams, read+append+retry`, sharedResult),
      ],
    );
    if (database.kind === 'pglite') {
      console.log(
        'On PGlite, (a) runs through the same PGlite client (drizzle `execute`); it runs one query at a time.',
      );
    }
    console.log(
      `(c): ${fmt.int(retries)} retries on WrongExpectedRevisionError ` +
        `(${fmt.fixed(retries / sharedResult.operations, 2)} per successful append); ` +
        `each shared stream ends with ${fmt.int((WRITERS * SHARED_PER_WRITER) / SHARED_STREAMS)} events, read whole on every attempt.`,
    );
  });
});
