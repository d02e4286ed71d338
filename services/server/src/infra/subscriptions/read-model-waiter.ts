import type { Database } from '../db/database.js';
import type { EventStore } from '../event-store/event-store.port.js';
import { readCheckpoints } from './checkpoints.js';
import type { Subscription } from './subscription.js';

interface Waiting {
  position: string;
  names: readonly string[];
  resolve(done: boolean): void;
  timer: NodeJS.Timeout;
}

/**
 * Read-your-writes, as a courtesy with a bound. A command's answer waits until the subscriptions that read its events
 * (read models and reactions) have passed them, so the caller's next query sees its change. This holds also when they
 * run in another process. One poller per process serves every waiting request, with one query per round whatever the
 * number of waiters. A subscription host in the same process wakes it at once.
 */
export class ReadModelWaiter {
  private readonly waiting = new Set<Waiting>();
  private polling = false;
  private wake: (() => void) | null = null;

  constructor(
    private readonly database: Database,
    private readonly store: EventStore,
    private readonly subscriptions: () => readonly Subscription[],
    private readonly defaultTimeoutMs: number,
  ) {}

  /** The subscriptions that read any of these event types. */
  readersOf(types: Iterable<string>): string[] {
    const wanted = new Set(types);
    return this.subscriptions()
      .filter((s) => s.handles.some((t) => wanted.has(t)))
      .map((s) => s.name);
  }

  /**
   * Resolves true once every subscription reading these event types has passed `position`, false when the bound
   * passes first (the change is made, but not visible everywhere yet). No position (nothing appended): true.
   */
  waitFor(position: string | null, eventTypes: Iterable<string>, timeoutMs = this.defaultTimeoutMs): Promise<boolean> {
    if (position === null) return Promise.resolve(true);
    const names = this.readersOf(eventTypes);
    if (names.length === 0) return Promise.resolve(true);
    return new Promise<boolean>((resolve) => {
      const entry: Waiting = {
        position,
        names,
        resolve,
        timer: setTimeout(() => {
          this.waiting.delete(entry);
          resolve(false);
        }, timeoutMs),
      };
      this.waiting.add(entry);
      this.nudge();
      if (!this.polling) void this.poll();
    });
  }

  /**
   * Waits (bounded) for the readers of a command's events; answers whether the change is still pending (made, but not
   * yet visible in every read model).
   */
  async pending(
    result: { position: string | null; events: ReadonlyArray<{ type: string }> },
    timeoutMs = this.defaultTimeoutMs,
  ): Promise<boolean> {
    return !(await this.waitFor(
      result.position,
      result.events.map((e) => e.type),
      timeoutMs,
    ));
  }

  /** Something moved (a checkpoint in this process): look again now. */
  nudge() {
    this.wake?.();
  }

  private async poll() {
    this.polling = true;
    try {
      for (let delay = 2; this.waiting.size > 0; delay = Math.min(delay * 2, 50)) {
        let checkpoints: Map<string, string | null>;
        try {
          checkpoints = await readCheckpoints(this.database);
        } catch {
          checkpoints = new Map();
        }
        for (const entry of [...this.waiting]) {
          if (entry.names.every((n) => this.passed(checkpoints.get(n), entry.position))) {
            clearTimeout(entry.timer);
            this.waiting.delete(entry);
            entry.resolve(true);
            delay = 1;
          }
        }
        if (this.waiting.size === 0) break;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(done, delay);
          function done() {
            clearTimeout(timer);
            resolve();
          }
          this.wake = () => {
            this.wake = null;
            done();
          };
        });
      }
    } finally {
      this.polling = false;
      this.wake = null;
    }
  }

  private passed(checkpoint: string | null | undefined, position: string) {
    return checkpoint != null && this.store.comparePositions(checkpoint, position) >= 0;
  }
}
