/**
 * Entries of results.json for the browser benchmarks, whose samples (frame times, latencies) are many per round: the
 * figure and the baseline are a percentile of every sample of every round pooled, and each round's own percentile
 * gives the spread and the ratio per round.
 */
import { type BenchResult, entryFromRounds, type Goal, goalMet, round } from '../results.js';
import { percentile } from '../support.js';

/** The p-th percentile (0–100, nearest rank) of unsorted values. */
export function pct(values: readonly number[], p: number): number {
  return percentile(Float64Array.from(values).sort(), p);
}

/** p50, p95 and p99 of the values, rounded to 0.1. */
export function summary(values: readonly number[]): { p50: number; p95: number; p99: number; max: number } {
  const at = (p: number) => round(pct(values, p), 1);
  return { p50: at(50), p95: at(95), p99: at(99), max: round(Math.max(...values), 1) };
}

export interface SampleRound {
  subject: number[];
  baseline: number[];
}

/** An entry whose figure and baseline are the `p`-th percentile of all samples of all rounds. */
export function pooledEntry(
  name: string,
  p: number,
  units: { unit: string; baselineUnit: string; baselineName: string },
  rounds: readonly SampleRound[],
  extra: { goal: Omit<Goal, 'met'>; [field: string]: unknown },
): BenchResult {
  const perRound = rounds.map((r) => ({ figure: pct(r.subject, p), baseline: pct(r.baseline, p) }));
  const entry = entryFromRounds(name, units, perRound, extra);
  const figure = pct(
    rounds.flatMap((r) => r.subject),
    p,
  );
  const baseline = pct(
    rounds.flatMap((r) => r.baseline),
    p,
  );
  const ratio = round(figure / baseline, 3);
  return {
    ...entry,
    figure: round(figure, 1),
    baseline: round(baseline, 1),
    ratio,
    // Judged on the figures as recorded: a frame p95 of two vsync intervals against one is the ratio 2 it reads.
    goal: { ...extra.goal, met: goalMet(extra.goal, extra.goal.field === 'ratio' ? ratio : round(figure, 1)) },
    figureIs: `p${p} of every sample of every round (spread and ratios: each round's own p${p})`,
    samples: rounds.reduce((n, r) => n + r.subject.length, 0),
    baselineSamples: rounds.reduce((n, r) => n + r.baseline.length, 0),
  };
}
