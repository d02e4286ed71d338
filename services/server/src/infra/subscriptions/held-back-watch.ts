import { Backoff } from '../../shared/backoff.js';
import type { EventStore } from '../event-store/event-store.port.js';

/** The longest a subscription held back by an open transaction waits before the feed is looked at again. */
export const HELD_BACK_MAX_WAIT_MS = 100;

/** What a subscription that found nothing readable learns. */
export type HeldBackOutcome =
  /** Events after its checkpoint are readable now (or it was asked to look at once, or the look failed). */
  | 'readable'
  /** Its checkpoint is the head: nothing was held back, it has read everything. */
  | 'caught-up'
  /** The watch was ended (the host stops or lost its lock). */
  | 'stopped';

interface Waiter {
  from: string | null;
  resolve: (outcome: HeldBackOutcome) => void;
  /** A look found the head beyond `from`: it is held back, and stays so until its events are readable. */
  behind?: boolean;
}

/**
 * Watches the feed for the subscriptions that found nothing readable after their checkpoints: one look at the feed
 * (its head, and whether anything is readable after the earliest checkpoint) for all of them at once — at once for a
 * newcomer, then backing off while a transaction still open holds the events back. Appends do not make held-back
 * events readable (only that transaction's end does), so a held-back subscription waits here instead of reading again
 * at every append: under a stream of appends, one look for every subscription, not two reads each per append.
 */
export class HeldBackWatch {
  private readonly waiters = new Map<string, Waiter>();
  private looking = false;
  /** A newcomer arrived: the next look is at once. */
  private hurry: (() => void) | null = null;
  private pendingHurry = false;

  constructor(
    private readonly store: EventStore,
    private readonly maxWaitMs = HELD_BACK_MAX_WAIT_MS,
  ) {}

  /**
   * Waits until events after `from` are readable or there are none (the head is `from`); at once 'stopped' when the
   * caller is no longer active.
   */
  wait(name: string, from: string | null, active: () => boolean): Promise<HeldBackOutcome> {
    if (!active()) return Promise.resolve('stopped');
    this.waiters.get(name)?.resolve('readable');
    return new Promise<HeldBackOutcome>((resolve) => {
      this.waiters.set(name, { from, resolve });
      if (this.looking) {
        this.pendingHurry = true;
        this.hurry?.();
      } else void this.watch();
    });
  }

  /** Ends one subscription's wait at once: it reads again (a caller moved its checkpoint, or wants it to look now). */
  release(name: string) {
    const waiter = this.waiters.get(name);
    if (!waiter) return;
    this.waiters.delete(name);
    waiter.resolve('readable');
  }

  /** Ends every wait (the host stops). */
  stop() {
    for (const waiter of this.waiters.values()) waiter.resolve('stopped');
    this.waiters.clear();
    this.hurry?.();
  }

  private async watch() {
    this.looking = true;
    const backoff = new Backoff({ initialMs: 5, maxMs: this.maxWaitMs, jitter: false });
    try {
      while (this.waiters.size > 0) {
        this.pendingHurry = false;
        await this.look();
        if (this.waiters.size === 0) break;
        if (this.pendingHurry) continue;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(done, backoff.next());
          function done() {
            clearTimeout(timer);
            resolve();
          }
          this.hurry = done;
        });
        this.hurry = null;
      }
    } finally {
      this.looking = false;
      this.hurry = null;
    }
  }

  /** One look at the feed for every waiter: the head, and the feed's end after the earliest checkpoint. */
  private async look() {
    const waiting = [...this.waiters];
    const froms = waiting.map(([, w]) => w.from);
    const earliest = froms.includes(null)
      ? null
      : froms.reduce((a, b) => (this.store.comparePositions(a!, b!) <= 0 ? a : b));
    let head: string | null;
    let readableTo: string | null;
    try {
      // A reader of no type: no event comes back, only where the readable feed ends after `earliest` (null: nothing).
      // The head only for a newcomer: one known to be held back stays so until its events are readable.
      [head, readableTo] = await Promise.all([
        waiting.every(([, w]) => w.behind) ? Promise.resolve(null) : this.store.headPosition(),
        this.store.readFeedFor(earliest, 1, []).then((page) => page.last),
      ]);
    } catch {
      // Each subscription meets the failure in its own step and waits there as it should.
      for (const [name, waiter] of waiting) this.settle(name, waiter, 'readable');
      return;
    }
    const after = (position: string | null, from: string | null) =>
      position !== null && (from === null || this.store.comparePositions(position, from) > 0);
    for (const [name, waiter] of waiting) {
      if (after(readableTo, waiter.from)) this.settle(name, waiter, 'readable');
      else if (waiter.behind) continue;
      else if (after(head, waiter.from)) waiter.behind = true;
      else this.settle(name, waiter, 'caught-up');
    }
  }

  private settle(name: string, waiter: Waiter, outcome: HeldBackOutcome) {
    if (this.waiters.get(name) !== waiter) return;
    this.waiters.delete(name);
    waiter.resolve(outcome);
  }
}
