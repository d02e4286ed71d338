/**
 * Work done ahead of need while the browser has nothing else to do, in short slices: each slice stops once it has
 * used `sliceMs` (or the idle time the browser offered, if less), so a tap or a frame never waits behind it for
 * longer than that. A phone's slower CPU makes a slice no longer, only the work less.
 *
 * `step(hasTime)` does some of the work and says whether it is finished; it asks `hasTime()` between small pieces and
 * returns `false` when told no (it is called again in the next idle period). Returns a function that stops the work.
 *
 * Where the browser has no `requestIdleCallback` (Safari), a slice runs after a short timeout instead.
 */
export function runWhenIdle(step: (hasTime: () => boolean) => boolean, sliceMs = 8): () => void {
  const idle = typeof window !== 'undefined' && typeof window.requestIdleCallback === 'function';
  let stopped = false;
  let handle: number | ReturnType<typeof setTimeout>;
  const schedule = () => {
    handle = idle ? window.requestIdleCallback(run, { timeout: 2_000 }) : setTimeout(() => run(null), 50);
  };
  const run = (deadline: IdleDeadline | null) => {
    if (stopped) return;
    const started = performance.now();
    const hasTime = () =>
      performance.now() - started < sliceMs && (!deadline || deadline.didTimeout || deadline.timeRemaining() > 0);
    if (!step(hasTime)) schedule();
  };
  schedule();
  return () => {
    stopped = true;
    if (idle) window.cancelIdleCallback(handle as number);
    else clearTimeout(handle);
  };
}
