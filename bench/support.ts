import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { createTestDatabase, testEnv, type TestDatabase } from '../services/server/src/testing/test-database.js';

/** Connections per pool: `openDatabase`'s default, which the server runs with. The raw baseline gets the same. */
export const POOL_SIZE = 20;

let startLoad: number[] = [];

/**
 * The load average (1, 5, 15 min) when `openBenchDatabase` was called: the work on the machine before this file's
 * own, which skews the figures when it goes on during the run.
 */
export const loadAverageAtStart = (): number[] => startLoad;

/**
 * A migrated scratch database of its own (dropped by `dispose`): on the PostgreSQL of DATABASE_URL when set, on the
 * embedded server (`npm start`'s) otherwise.
 */
export async function openBenchDatabase(): Promise<TestDatabase> {
  const bench = await createTestDatabase({ poolSize: POOL_SIZE });
  console.log(
    `Backend: ${embeddedOnly() ? 'embedded ' : ''}PostgreSQL (scratch database ${new URL(bench.url).pathname.slice(1)}, pool of ${POOL_SIZE})`,
  );
  noteLoadAtStart();
  return bench;
}

/**
 * Notes (and prints) the load average before this file's own work, for `loadAverageAtStart()`. `openBenchDatabase`
 * does it; a file that opens no database calls it first.
 */
export function noteLoadAtStart(): number[] {
  startLoad = os.loadavg().map((n) => Math.round(n * 100) / 100);
  console.log(
    `Load average before this file's work: ${startLoad.join(', ')} (1, 5, 15 min) on ${os.availableParallelism()} ` +
      'CPUs (a bench file that ran just before counts in it too)',
  );
  return startLoad;
}

/** Runs per measured variant (interleaved with its baseline); BENCH_ROUNDS overrides the default of 5. */
export const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 5) || 5);

/**
 * The variants of one round, in the order to run them: as given in even rounds (0, 2, …), reversed in odd ones, so a
 * drift of the machine (fsync time, autovacuum, a checkpoint) does not always hit the same variant first.
 */
export function roundOrder<T>(round: number, variants: readonly T[]): T[] {
  return round % 2 === 0 ? [...variants] : [...variants].reverse();
}

/** Whether the run has no DATABASE_URL of its own: every figure is then the embedded server's. */
const embeddedOnly = () => testEnv.databaseUrl === testEnv.embeddedUrl;

/** The database the figures are for, e.g. `PostgreSQL 15.13` or `embedded PostgreSQL 18.4`. */
export async function backendOf(bench: TestDatabase): Promise<string> {
  const [row] = await bench.database.query<{ v: string }>(`select current_setting('server_version') as v`);
  const version = row?.v.split(' ')[0] ?? '?';
  return `${embeddedOnly() ? 'embedded ' : ''}PostgreSQL ${version}`;
}

/** Joins ascending latency arrays of several runs into one ascending array. */
export function mergeLatencies(runs: ReadonlyArray<Float64Array>): Float64Array {
  const all = new Float64Array(runs.reduce((n, r) => n + r.length, 0));
  let at = 0;
  for (const r of runs) {
    all.set(r, at);
    at += r.length;
  }
  return all.sort();
}

export interface RunResult {
  operations: number;
  seconds: number;
  /** Milliseconds, one per operation, sorted ascending. */
  latencies: Float64Array;
}

/**
 * Runs `writers` concurrent loops, each doing `perWriter` operations one after another, and answers the wall time
 * and every operation's latency.
 */
export async function runWriters(
  writers: number,
  perWriter: number,
  operation: (writer: number, i: number) => Promise<void>,
): Promise<RunResult> {
  const latencies = new Float64Array(writers * perWriter);
  const start = performance.now();
  await Promise.all(
    Array.from({ length: writers }, async (_, writer) => {
      for (let i = 0; i < perWriter; i++) {
        const t0 = performance.now();
        await operation(writer, i);
        latencies[writer * perWriter + i] = performance.now() - t0;
      }
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  latencies.sort();
  return { operations: latencies.length, seconds, latencies };
}

/** Times one call; answers its result and the seconds it took. */
export async function timed<T>(work: () => Promise<T>): Promise<{ result: T; seconds: number }> {
  const start = performance.now();
  const result = await work();
  return { result, seconds: (performance.now() - start) / 1000 };
}

/** The p-th percentile (0–100) of ascending values, nearest-rank. */
export function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

export const fmt = {
  int: (n: number) => Math.round(n).toLocaleString('en-US'),
  fixed: (n: number, digits: number) => n.toFixed(digits),
};

/** Prints a Markdown table (so the figures can be pasted into bench/README.md as they are). */
export function printTable(title: string, headers: readonly string[], rows: ReadonlyArray<readonly string[]>): void {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (i === 0 ? `${'-'.repeat(w + 1)}-` : `${'-'.repeat(w + 1)}:`)).join('|')}|`;
  console.log(['', title, '', line(headers), rule, ...rows.map(line), ''].join('\n'));
}
