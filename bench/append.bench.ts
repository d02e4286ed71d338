/**
 * Append throughput of the SQL event store against raw single-row INSERTs on the same database, in one run: several
 * rounds, each running the baseline and both event-store variants, so every figure has a spread and a baseline of its
 * own round. Prints a table, records `append-16-writers` and `append-hot-streams` in bench/results.json; asserts only
 * that every write landed. See bench/README.md.
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
import { type BenchResult, entryFromRounds, median, recordResults, round } from './results.js';
import {
  backendOf,
  fmt,
  loadAverageAtStart,
  mergeLatencies,
  openBenchDatabase,
  percentile,
  POOL_SIZE,
  printTable,
  ROUNDS,
  roundOrder,
  type RunResult,
  runWriters,
} from './support.js';

const WRITERS = 16;
const PER_WRITER = 500;
const WARMUP_PER_WRITER = 25;
const SHARED_STREAMS = 4;
/**
 * Fewer operations for (c): every attempt reads its whole stream (as the command handlers do), so the cost grows with
 * the stream; at 500 each, the streams reach 2,000 events and the variant alone takes minutes. Every round writes
 * streams of its own, so each round's (c) starts from empty streams.
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

/** Raw single-row INSERTs, autocommit: a `pg.Pool` of the store's size. */
interface RawInserter {
  insert(name: string, data: unknown): Promise<void>;
  count(): Promise<number>;
  close(): Promise<void>;
}

const CREATE_RAW = 'create table bench_raw (id bigserial primary key, name text not null, data jsonb not null)';

async function rawInserter(bench: TestDatabase): Promise<RawInserter> {
  const pool = new pg.Pool({ connectionString: bench.url, max: POOL_SIZE });
  pool.on('error', () => undefined);
  await pool.query(CREATE_RAW);
  return {
    // A prepared statement, as the event store's own statements are: the baseline is the best a plain INSERT does.
    insert: async (name, data) => {
      await pool.query({
        name: 'bench_raw',
        text: 'insert into bench_raw (name, data) values ($1, $2)',
        values: [name, JSON.stringify(data)],
      });
    },
    count: async () => (await pool.query<{ n: number }>('select count(*)::int as n from bench_raw')).rows[0]!.n,
    close: () => pool.end(),
  };
}

async function countEvents(database: Database, streamPrefix: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    database.db,
    sql`select count(*)::int as n from events where stream_id like ${`${streamPrefix}%`}`,
  );
  return row!.n;
}

type Variant = 'raw' | 'own' | 'shared';
const VARIANTS: readonly Variant[] = ['raw', 'own', 'shared'];

describe('append throughput', () => {
  let bench: TestDatabase;
  beforeAll(async () => {
    bench = await openBenchDatabase();
  });
  afterAll(async () => bench?.dispose());

  it(`${WRITERS} concurrent writers: raw INSERT vs event-store append, ${ROUNDS} rounds`, async () => {
    const { database } = bench;
    const backend = await backendOf(bench);
    const store = new SqlEventStore(database);

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

    // (c) Writers contending on a few shared streams: read, append with the revision read, retry on a conflict.
    const sharedStreams = (prefix: string) => {
      const counter = { retries: 0 };
      const operation = async (writer: number, i: number) => {
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
            counter.retries++;
          }
        }
      };
      return { operation, counter };
    };

    // (a) Baseline: raw single-row INSERTs through the same driver.
    const raw = await rawInserter(bench);
    const runs: Record<Variant, RunResult[]> = { raw: [], own: [], shared: [] };
    const retries: number[] = [];
    try {
      let rawRows = 0;
      const insert = (writer: number, i: number) => raw.insert(`writer-${writer}`, creditsData(writer, i));

      // One warm-up per variant (not measured).
      await runWriters(WRITERS, WARMUP_PER_WRITER, insert);
      rawRows += WRITERS * WARMUP_PER_WRITER;
      await runWriters(WRITERS, WARMUP_PER_WRITER, ownStreams('warmup-own'));
      await runWriters(WRITERS, WARMUP_PER_WRITER, sharedStreams('warmup-shared').operation);

      for (let r = 0; r < ROUNDS; r++) {
        for (const variant of roundOrder(r, VARIANTS)) {
          if (variant === 'raw') {
            runs.raw.push(await runWriters(WRITERS, PER_WRITER, insert));
            rawRows += WRITERS * PER_WRITER;
            expect(await raw.count()).toBe(rawRows);
          } else if (variant === 'own') {
            const prefix = `bench-own-r${r}`;
            runs.own.push(await runWriters(WRITERS, PER_WRITER, ownStreams(prefix)));
            expect(await countEvents(database, `${prefix}-`)).toBe(WRITERS * PER_WRITER);
            for (let w = 0; w < WRITERS; w++) {
              expect((await store.readStream(`${prefix}-${w}`)).revision).toBe(PER_WRITER - 1);
            }
          } else {
            const prefix = `bench-shared-r${r}`;
            const shared = sharedStreams(prefix);
            runs.shared.push(await runWriters(WRITERS, SHARED_PER_WRITER, shared.operation));
            retries.push(shared.counter.retries);
            expect(await countEvents(database, `${prefix}-`)).toBe(WRITERS * SHARED_PER_WRITER);
          }
        }
      }
    } finally {
      await raw.close();
    }

    const opsPerSecond = (r: RunResult) => r.operations / r.seconds;
    const rawRates = runs.raw.map(opsPerSecond);
    const rawMedian = median(rawRates);
    const row = (label: string, results: RunResult[]) => {
      const rates = results.map(opsPerSecond);
      const latencies = mergeLatencies(results.map((r) => r.latencies));
      return [
        label,
        `${results.length} × ${fmt.int(results[0]!.operations)}`,
        fmt.fixed(median(results.map((r) => r.seconds)), 2),
        fmt.int(median(rates)),
        `${fmt.int(Math.min(...rates))}–${fmt.int(Math.max(...rates))}`,
        fmt.fixed(percentile(latencies, 50), 2),
        fmt.fixed(percentile(latencies, 95), 2),
        fmt.fixed(percentile(latencies, 99), 2),
        fmt.fixed(median(rates) / rawMedian, 2),
        rates.map((rate, i) => fmt.fixed(rate / rawRates[i]!, 2)).join(' '),
      ];
    };
    printTable(
      `Append, ${WRITERS} concurrent writers, ${PER_WRITER} operations each ((c): ${SHARED_PER_WRITER}) per run, ` +
        `${ROUNDS} rounds of (a), (b), (c) (reversed in odd rounds) after one warm-up of ${WARMUP_PER_WRITER} each, ` +
        `${backend}, pools of ${POOL_SIZE}`,
      [
        'variant',
        'runs × operations',
        'median s',
        'ops/s (median)',
        'ops/s min–max',
        'p50 ms',
        'p95 ms',
        'p99 ms',
        '÷ raw INSERT ops/s',
        '÷ raw INSERT, per run',
      ],
      [
        row('(a) raw single-row INSERT (baseline)', runs.raw),
        row('(b) event store, own stream per writer', runs.own),
        row(`(c) event store, ${SHARED_STREAMS} shared streams, read+append+retry`, runs.shared),
      ],
    );
    const sharedOps = WRITERS * SHARED_PER_WRITER;
    console.log(
      `(c): retries on WrongExpectedRevisionError per run: ${retries.map((n) => fmt.int(n)).join(', ')} ` +
        `(median ${fmt.fixed(median(retries) / sharedOps, 2)} per successful append); ` +
        `each shared stream ends a run with ${fmt.int(sharedOps / SHARED_STREAMS)} events, read whole on every attempt.`,
    );

    const latencyMs = (results: RunResult[]) => {
      const latencies = mergeLatencies(results.map((r) => r.latencies));
      return {
        p50: round(percentile(latencies, 50), 2),
        p95: round(percentile(latencies, 95), 2),
        p99: round(percentile(latencies, 99), 2),
      };
    };
    const units = {
      unit: 'appends/s',
      baselineUnit: 'rows/s',
      baselineName: `raw single-row INSERT, prepared, autocommit, ${WRITERS} writers, pg pool of ${POOL_SIZE}`,
    };
    const roundsOf = (results: RunResult[]) =>
      results.map((r, i) => ({ figure: opsPerSecond(r), baseline: rawRates[i]! }));
    const entries: BenchResult[] = [
      entryFromRounds('append-16-writers', units, roundsOf(runs.own), {
        goal: { field: 'ratio', atLeast: 0.5 },
        backend,
        loadAverageAtStart: loadAverageAtStart(),
        writers: WRITERS,
        streams: WRITERS,
        operationsPerRun: WRITERS * PER_WRITER,
        latencyMs: latencyMs(runs.own),
      }),
      entryFromRounds('append-hot-streams', units, roundsOf(runs.shared), {
        backend,
        loadAverageAtStart: loadAverageAtStart(),
        writers: WRITERS,
        streams: SHARED_STREAMS,
        operationsPerRun: sharedOps,
        latencyMs: latencyMs(runs.shared),
        retriesPerAppend: round(median(retries) / sharedOps, 2),
      }),
    ];
    await recordResults(entries);
  });
});
