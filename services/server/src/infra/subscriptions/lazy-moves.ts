import type { Database } from '../db/database.js';
import type { EventStore } from '../event-store/event-store.port.js';
import { advanceCheckpoints } from './checkpoints.js';
import type { SubscriptionRunner } from './subscription-runner.js';

/**
 * Moves subscriptions past events none of them reads, together: one read of the feed after the earliest of their
 * checkpoints (only events of the types they read, and where the readable feed ends), and one statement that moves
 * each subscription with none of its own events in between to that end. Under a stream of clicks, every subscription
 * that reads no click moves on in two statements for all of them, instead of two each, all at once, every half second
 * (which had them take a fifth of the connections the claims wait for).
 *
 * Answers the subscriptions to wake instead: those with events of their own to apply, those in a step of their own
 * (or that know no checkpoint), and all of them when the page was full, nothing was readable or the look failed.
 */
export async function moveLazily(
  database: Database,
  store: EventStore,
  runners: readonly SubscriptionRunner[],
  limit: number,
): Promise<SubscriptionRunner[]> {
  const wake: SubscriptionRunner[] = [];
  const resting: Array<{ runner: SubscriptionRunner; from: string | null }> = [];
  for (const runner of runners) {
    const at = runner.resting;
    if (at) resting.push({ runner, from: at.position });
    else wake.push(runner);
  }
  if (resting.length === 0) return wake;
  try {
    const froms = resting.map((r) => r.from);
    const earliest = froms.includes(null)
      ? null
      : froms.reduce((a, b) => (store.comparePositions(a!, b!) <= 0 ? a : b));
    const types = [...new Set(resting.flatMap((r) => r.runner.subscription.handles))];
    const page = await store.readFeedFor(earliest, limit, types);
    const to = page.last;
    if (page.more || to === null) return [...wake, ...resting.map((r) => r.runner)];
    const moves: typeof resting = [];
    for (const r of resting) {
      const handles = new Set(r.runner.subscription.handles);
      const after = (position: string) => r.from === null || store.comparePositions(position, r.from) > 0;
      if (page.events.some((e) => handles.has(e.type) && after(e.position))) wake.push(r.runner);
      else if (after(to)) moves.push(r);
    }
    const moved = await advanceCheckpoints(
      database,
      moves.map((m) => ({ name: m.runner.name, from: m.from })),
      to,
    );
    for (const m of moves) {
      if (moved.has(m.runner.name)) m.runner.movedPast(m.from, to);
      else wake.push(m.runner);
    }
    return wake;
  } catch {
    // Each meets the failure in a step of its own, and waits there as it should.
    return [...wake, ...resting.map((r) => r.runner)];
  }
}
