/**
 * Runs `run` on every item, `atOnce` items at a time, in turns: a turn starts once every run of the one before has
 * settled, and the runs of a turn start in the items' order. Fails with the first failure (in the items' order) once
 * every run of its turn has settled, and starts no later turn — so that nothing is still running when the caller goes
 * on (its transaction ends, its process reports and retries).
 *
 * Not `p-limit`: that keeps `atOnce` running by starting the next as soon as one ends, and `Promise.all` over it
 * rejects while the others still run.
 */
export async function inTurns<T>(
  items: readonly T[],
  atOnce: number,
  run: (item: T) => Promise<unknown>,
): Promise<void> {
  const size = Math.max(1, Math.floor(atOnce));
  for (let from = 0; from < items.length; from += size) {
    const results = await Promise.allSettled(items.slice(from, from + size).map((item) => run(item)));
    const failed = results.find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
  }
}
