import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Database, Tx } from '../db/database.js';
import { errorCode, safeErrorMessage } from '../db/db-errors.js';
import { isTransientFailure } from '../transient-failure.js';
import type { EventStore, InDatabaseStep, RecordedEvent } from '../event-store/event-store.port.js';
import { advanceCheckpoint, CheckpointMovedError, readCheckpoint } from './checkpoints.js';
import type { LiveUpdate, Subscription, SubscriptionContext } from './subscription.js';

export interface RetryPolicy {
  /** Tries of one failing event, one by one, before it is parked. */
  attempts: number;
  /** Wait before the second try; doubles each time. */
  initialMs: number;
}

export interface SubscriptionLogger {
  log(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export interface RunnerOptions {
  batchSize: number;
  retry: RetryPolicy;
  onLive?: (updates: LiveUpdate[]) => void;
  /** Called after each commit that moved the checkpoint (read-your-writes waiters in this process). */
  onAdvanced?: (name: string, position: string) => void;
  logger: SubscriptionLogger;
}

/** What one step of a runner did. */
export interface StepResult {
  /** Events of the subscription's types it applied (or parked). */
  applied: number;
  /** The checkpoint moved; false: nothing new was readable. */
  moved: boolean;
  /** The page was full: more may be readable at once. */
  more: boolean;
}

/** The SQLSTATE of a database step whose checkpoint was moved meanwhile (`seatlink_step_in_database`). */
const CHECKPOINT_MOVED = 'SL001';

const describe = (err: unknown) => safeErrorMessage(err).slice(0, 2000);

/**
 * Runs one subscription over the feed: reads a batch after its checkpoint, applies the events it handles and moves the
 * checkpoint in one transaction. When a batch fails, its events are applied one at a time; an event that keeps failing
 * is retried with backoff and then parked (kept with its error), and the subscription moves past it. Failures of the
 * database itself (connection lost) are not the event's fault: they are thrown for the caller to wait and try again.
 */
export class SubscriptionRunner {
  constructor(
    private readonly database: Database,
    private readonly store: EventStore,
    readonly subscription: Subscription,
    private readonly options: RunnerOptions,
  ) {}

  get name() {
    return this.subscription.name;
  }

  /**
   * The checkpoint as this runner last read or moved it, while it is busy: a subscription does not read its own
   * checkpoint again before every batch. Dropped when anything fails or the host finds it quiet (`idle`); a checkpoint
   * moved by someone else (a reset for a rebuild) is then read afresh, or makes the next move's compare-and-set fail.
   */
  private known: { position: string | null } | null = null;

  /**
   * The events an operator chose to skip (a decision, kept across rebuilds): never applied again, however often the
   * feed is read from the start. Read with the checkpoint, so a rebuild (which moves the checkpoint) sees them.
   */
  private skipped: { ids: ReadonlySet<string>; last: string | null } = { ids: new Set(), last: null };

  /** The checkpoint, read afresh (a reset for a rebuild may have moved it), and the events skipped for good. */
  async checkpoint(): Promise<string | null> {
    const [position, skipped] = await Promise.all([
      readCheckpoint(this.database, this.name),
      this.database.query<{ event_id: string; position: string }>(
        `select event_id, position from parked_events where subscription = $1 and status = 'skipped'`,
        [this.name],
      ),
    ]);
    if (position === undefined) throw new Error(`Subscription ${this.name} has no checkpoint yet`);
    this.skipped = {
      ids: new Set(skipped.map((r) => r.event_id)),
      last: skipped.reduce<string | null>(
        (p, r) => (p === null || this.store.comparePositions(r.position, p) > 0 ? r.position : p),
        null,
      ),
    };
    this.known = { position };
    return position;
  }

  /** Whether events skipped for good lie ahead of `from` (then a page is applied here, where they are left out). */
  private skippedAhead(from: string | null): boolean {
    const { last } = this.skipped;
    return last !== null && (from === null || this.store.comparePositions(last, from) > 0);
  }

  /** Where the next step reads from. */
  async position(): Promise<string | null> {
    return this.known ? this.known.position : this.checkpoint();
  }

  /** Nothing more to do for now: the next step reads the checkpoint afresh. */
  idle() {
    this.known = null;
  }

  /** A step is under way. */
  private stepping = false;

  /** Where it stands between steps, when it knows (undefined while a step is under way or after `idle`). */
  get resting(): { position: string | null } | undefined {
    return this.stepping || !this.known ? undefined : { position: this.known.position };
  }

  /** The host moved its checkpoint from `from` to `to`, past events it does not read (`moveLazily`). */
  movedPast(from: string | null, to: string) {
    if (this.stepping || !this.known || this.known.position !== from) return;
    this.known = { position: to };
    this.moved = true;
    this.options.onAdvanced?.(this.name, to);
  }

  /** The host moved it since it last asked (it is not quiet, though it had no step of its own). */
  takeMoved(): boolean {
    const moved = this.moved;
    this.moved = false;
    return moved;
  }

  private moved = false;

  /**
   * Processes one batch: answers how many of its events it applied, whether its checkpoint moved (false: nothing new
   * is readable) and whether more may be readable at once.
   */
  async step(): Promise<StepResult> {
    this.stepping = true;
    this.moved = false;
    try {
      return await this.stepOnce();
    } finally {
      this.stepping = false;
    }
  }

  private async stepOnce(): Promise<StepResult> {
    const from = await this.position();
    this.known = null;
    if (this.subscription.inDatabase && this.store.applyInDatabase && !this.skippedAhead(from)) {
      const done = await this.stepInDatabase(this.subscription.inDatabase, from);
      if (done) return done;
    }
    const limit = Math.min(this.options.batchSize, this.subscription.batchSize ?? Infinity);
    const page = await this.store.readFeedFor(from, limit, this.subscription.handles);
    if (page.last === null) {
      this.known = { position: from };
      return { applied: 0, moved: false, more: false };
    }
    const events = this.skippedAhead(from) ? page.events.filter((e) => !this.skipped.ids.has(e.id)) : page.events;
    try {
      if (events.length === 0) await this.skip(from, page.last);
      else await this.commit(events, from, page.last);
    } catch (err) {
      this.known = null;
      if (err instanceof CheckpointMovedError || isTransientFailure(err)) throw err;
      await this.isolate(events, from, page.last);
    }
    return { applied: events.length, moved: true, more: page.more };
  }

  /**
   * One step by the subscription's database function, which reads and applies its page in the statement that moves
   * the checkpoint. Null when the page is left to `apply`: the function said so, or failed (not the database).
   */
  private async stepInDatabase(fn: string, from: string | null): Promise<StepResult | null> {
    let done: InDatabaseStep | null;
    try {
      done = await this.store.applyInDatabase!(fn, this.name, from, this.options.batchSize);
    } catch (err) {
      if (errorCode(err) === CHECKPOINT_MOVED) throw new CheckpointMovedError(this.name);
      if (isTransientFailure(err)) throw err;
      this.options.logger.warn(`${this.name}: ${fn} failed, applying the page in the process: ${describe(err)}`);
      return null;
    }
    if (!done) {
      this.known = { position: from };
      return { applied: 0, moved: false, more: false };
    }
    if (done.last === null) return null;
    this.known = { position: done.last };
    this.options.onAdvanced?.(this.name, done.last);
    return { applied: done.applied, moved: true, more: done.more };
  }

  /**
   * Moves the checkpoint past events this subscription does not read: one statement (a compare-and-set), no
   * transaction, as nothing else is written.
   */
  private async skip(from: string | null, to: string) {
    await advanceCheckpoint(this.database.db, this.name, from, to);
    this.known = { position: to };
    this.options.onAdvanced?.(this.name, to);
  }

  /** Applies a failed batch one event at a time, so only the event at fault is parked; then moves on to `last`. */
  private async isolate(events: readonly RecordedEvent[], from: string | null, last: string) {
    let at = from;
    for (const event of events) {
      await this.applyOne(event, at);
      at = event.position;
    }
    if (at !== last) await this.commit([], at, last);
  }

  private async applyOne(event: RecordedEvent, from: string | null) {
    const { attempts, initialMs } = this.options.retry;
    let lastError: unknown;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      try {
        await this.commit([event], from, event.position);
        return;
      } catch (err) {
        if (err instanceof CheckpointMovedError || isTransientFailure(err)) throw err;
        lastError = err;
        if (attempt < attempts) await new Promise((r) => setTimeout(r, initialMs * 2 ** (attempt - 1)));
      }
    }
    await this.park(event, from, lastError, attempts);
  }

  private async park(event: RecordedEvent, from: string | null, error: unknown, attempts: number) {
    await this.database.db.transaction(async (tx) => {
      await advanceCheckpoint(tx, this.name, from, event.position);
      await tx.execute(sql`
        insert into parked_events
          (id, subscription, event_id, position, stream_id, event_type, stream_revision, event_data, event_metadata,
           event_created_at, error, attempts, parked_at, status)
        values (${randomUUID()}, ${this.name}, ${event.id}, ${event.position}, ${event.streamId}, ${event.type},
                ${event.revision}, ${JSON.stringify(event.data ?? {})}::jsonb, ${JSON.stringify(event.metadata ?? {})}::jsonb,
                ${event.createdAt.toISOString()}, ${describe(error)}, ${attempts}, now(), 'parked')
        on conflict (subscription, event_id) do update
          set error = excluded.error, attempts = parked_events.attempts + excluded.attempts,
              parked_at = excluded.parked_at, status = 'parked', resolved_at = null, resolved_by = null`);
    });
    this.known = { position: event.position };
    this.options.onAdvanced?.(this.name, event.position);
    this.options.logger.error(
      `${this.name}: parked ${event.type} ${event.id} (stream ${event.streamId}, position ${event.position}) ` +
        `after ${attempts} tries: ${describe(error)}`,
    );
  }

  /** What `apply` is given: the transaction, the event store within it, and queues for after the commit. */
  private context(tx: Tx, live: LiveUpdate[], after: Array<() => void | Promise<void>>): SubscriptionContext {
    const afterCommit = (work: () => void | Promise<void>) => after.push(work);
    return {
      tx,
      store: this.store.withinTransaction(tx, afterCommit),
      push: (update) => live.push(update),
      afterCommit,
    };
  }

  /** Applies events and moves the checkpoint from `from` to `to` in one transaction; then sends what it queued. */
  private async commit(events: readonly RecordedEvent[], from: string | null, to: string) {
    const live: LiveUpdate[] = [];
    const after: Array<() => void | Promise<void>> = [];
    await this.database.db.transaction(async (tx) => {
      await advanceCheckpoint(tx, this.name, from, to);
      if (events.length === 0) return;
      await this.subscription.apply(events, this.context(tx, live, after));
    });
    this.known = { position: to };
    this.options.onAdvanced?.(this.name, to);
    if (live.length > 0) this.options.onLive?.(dedupe(live));
    for (const work of after) {
      try {
        await work();
      } catch (err) {
        this.options.logger.warn(`${this.name}: after-commit work failed: ${describe(err)}`);
      }
    }
  }

  /**
   * Applies one parked event again, out of its turn (an operator's retry): answers null when it went through, else
   * the error. The checkpoint does not move.
   */
  async reapply(event: RecordedEvent): Promise<string | null> {
    const live: LiveUpdate[] = [];
    const after: Array<() => void | Promise<void>> = [];
    try {
      await this.database.db.transaction(async (tx) => {
        const ctx = this.context(tx, live, after);
        if (this.subscription.repair) await this.subscription.repair(event, ctx);
        else await this.subscription.apply([event], ctx);
      });
    } catch (err) {
      return describe(err);
    }
    if (live.length > 0) this.options.onLive?.(dedupe(live));
    for (const work of after) await Promise.resolve(work()).catch(() => undefined);
    return null;
  }
}

/** The same update twice in one batch is sent once. */
function dedupe(updates: LiveUpdate[]): LiveUpdate[] {
  const seen = new Set<string>();
  return updates.filter((u) => {
    const key = JSON.stringify([u.to, u.event, u.payload]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
