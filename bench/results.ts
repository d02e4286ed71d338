/**
 * bench/results.json: the figures of the last run, one entry per benchmark, so each can be compared from run to run.
 * Each bench file records only its own entries (by name) and keeps the others'. See bench/README.md.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';

/** Where the results go; BENCH_RESULTS overrides it (e.g. to keep a run out of the committed record). */
export const RESULTS_FILE = process.env.BENCH_RESULTS
  ? path.resolve(process.env.BENCH_RESULTS)
  : fileURLToPath(new URL('./results.json', import.meta.url));

/** The spread of one figure over the runs of the same process. */
export interface Spread {
  min: number;
  max: number;
  runs: number;
}

/** One entry of results.json. Only name, figure, unit, baseline and ratio are required; the rest is optional. */
export interface BenchResult {
  name: string;
  /** The median over the runs. */
  figure: number;
  unit: string;
  /** The median of the baseline measured in the same runs (interleaved with the subject). */
  baseline: number;
  /** figure ÷ baseline. */
  ratio: number;
  baselineUnit?: string;
  /** What the baseline is. */
  baselineName?: string;
  spread?: Spread;
  baselineSpread?: Spread;
  /** figure ÷ baseline of each run, in run order. */
  ratios?: number[];
  goal?: Goal;
  [extra: string]: unknown;
}

/** A target one field of the entry should reach (recorded, never asserted): at least, or (latencies) at most. */
export interface Goal {
  field: 'figure' | 'ratio';
  atLeast?: number;
  atMost?: number;
  met: boolean;
}

/** Whether a value reaches its goal. */
export function goalMet(goal: Omit<Goal, 'met'>, value: number): boolean {
  return (goal.atLeast === undefined || value >= goal.atLeast) && (goal.atMost === undefined || value <= goal.atMost);
}

/** Keys in this order first, the others after them alphabetically, so the file only changes where figures change. */
const KEY_ORDER = [
  'name',
  'figure',
  'unit',
  'baseline',
  'baselineUnit',
  'baselineName',
  'ratio',
  'spread',
  'baselineSpread',
  'ratios',
  'goal',
] as const;

function ordered(entry: BenchResult): BenchResult {
  const known = new Set<string>(KEY_ORDER);
  const keys = [
    ...KEY_ORDER.filter((k) => k in entry),
    ...Object.keys(entry)
      .filter((k) => !known.has(k))
      .sort(),
  ];
  return Object.fromEntries(keys.map((k) => [k, entry[k]])) as BenchResult;
}

function check(entry: BenchResult): void {
  const { name, figure, unit, baseline, ratio } = entry;
  if (typeof name !== 'string' || name === '') throw new Error(`bench result without a name: ${JSON.stringify(entry)}`);
  if (typeof unit !== 'string' || unit === '') throw new Error(`bench result ${name} has no unit`);
  for (const [field, value] of Object.entries({ figure, baseline, ratio })) {
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      throw new Error(`bench result ${name}: ${field} is not a finite number (${String(value)})`);
    }
  }
}

async function readResults(file: string): Promise<BenchResult[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const parsed: unknown = JSON.parse(text);
  if (!Array.isArray(parsed)) throw new Error(`${file} is not a JSON array; move it away to start a new one`);
  return parsed as BenchResult[];
}

const LOCK_WAIT_MS = 30_000;

/** Holds `file`.lock while `work` runs, so two bench files finishing at once do not lose each other's entries. */
async function withLock<T>(file: string, work: () => Promise<T>): Promise<T> {
  const lock = `${file}.lock`;
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      await (await open(lock, 'wx')).close();
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      // A lock older than the wait is left over from a crashed run.
      const age = await stat(lock).then(
        (s) => Date.now() - s.mtimeMs,
        () => 0,
      );
      if (age > LOCK_WAIT_MS || Date.now() > deadline) await rm(lock, { force: true });
      else await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  try {
    return await work();
  } finally {
    await rm(lock, { force: true });
  }
}

/**
 * Merges `entries` into results.json: replaces the entries of the same names, keeps all others, sorts by name and
 * writes the file atomically (a temporary file in the same folder, then a rename), formatted as Prettier formats it.
 * Answers the path written.
 */
export async function recordResults(entries: readonly BenchResult[]): Promise<string> {
  entries.forEach(check);
  const names = new Set(entries.map((e) => e.name));
  if (names.size !== entries.length) throw new Error('bench results with the same name twice');
  const file = RESULTS_FILE;
  await mkdir(path.dirname(file), { recursive: true });
  await withLock(file, async () => {
    const kept = (await readResults(file)).filter((e) => !names.has(e.name));
    const all = [...kept, ...entries].map(ordered).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const options = (await prettier.resolveConfig(file)) ?? {};
    const text = await prettier.format(JSON.stringify(all, null, 2), { ...options, filepath: file });
    const temp = path.join(
      path.dirname(file),
      `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`,
    );
    try {
      await writeFile(temp, text, 'utf8');
      await rename(temp, file);
    } catch (err) {
      await rm(temp, { force: true });
      throw err;
    }
  });
  console.log(`Recorded ${[...names].sort().join(', ')} in ${path.relative(process.cwd(), file) || file}`);
  return file;
}

/** The median of the values (the mean of the middle two for an even count). */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export const round = (n: number, digits = 0) => {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
};

export function spreadOf(values: readonly number[], digits = 0): Spread {
  return { min: round(Math.min(...values), digits), max: round(Math.max(...values), digits), runs: values.length };
}

/** One run of a subject and its baseline, measured in the same round. */
export interface Round {
  figure: number;
  baseline: number;
}

/**
 * The entry for a subject measured over several rounds against its baseline: median figure and baseline, their
 * ratio, the spread of both and the ratio of each round. `extra` adds fields; its `goal` gets `met` filled in.
 */
export function entryFromRounds(
  name: string,
  units: { unit: string; baselineUnit: string; baselineName: string },
  rounds: readonly Round[],
  extra: { goal?: Omit<Goal, 'met'>; [field: string]: unknown } = {},
): BenchResult {
  const figure = median(rounds.map((r) => r.figure));
  const baseline = median(rounds.map((r) => r.baseline));
  const ratio = round(figure / baseline, 3);
  const { goal, ...rest } = extra;
  return {
    ...rest,
    name,
    figure: round(figure),
    unit: units.unit,
    baseline: round(baseline),
    baselineUnit: units.baselineUnit,
    baselineName: units.baselineName,
    ratio,
    spread: spreadOf(rounds.map((r) => r.figure)),
    baselineSpread: spreadOf(rounds.map((r) => r.baseline)),
    ratios: rounds.map((r) => round(r.figure / r.baseline, 3)),
    // Judged on the figures as recorded, so the file never says a goal was missed by a figure that reads as met.
    ...(goal ? { goal: { ...goal, met: goalMet(goal, goal.field === 'ratio' ? ratio : round(figure)) } } : {}),
    measuredAt: new Date().toISOString(),
    node: process.version,
    cpus: os.availableParallelism(),
    // The load average (1, 5, 15 min) when the entry was made, the benchmark's own work included.
    loadAverage: os.loadavg().map((n) => round(n, 2)),
  };
}
