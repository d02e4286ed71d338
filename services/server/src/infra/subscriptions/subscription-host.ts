import { hostname } from 'node:os';
import { safeErrorMessage } from '../db/db-errors.js';
import type { Database, HeldLock } from '../db/database.js';
import { isTransientFailure } from '../transient-failure.js';
import { reportIfTimeout } from '../db/timeout-report.js';
import type { EventStore } from '../event-store/event-store.port.js';
import { Backoff } from '../../shared/backoff.js';
import { CheckpointMovedError, ensureCheckpoint } from './checkpoints.js';
import { Signal } from '../../shared/signal.js';
import { HeldBackWatch } from './held-back-watch.js';
import { moveLazily } from './lazy-moves.js';
import type { LiveUpdate, Subscription } from './subscription.js';
import {
  type RetryPolicy,
  type StepResult,
  type SubscriptionLogger,
  SubscriptionRunner,
} from './subscription-runner.js';

/** Advisory-lock key of the subscriptions: exactly one process runs them at a time; the others stand by. */
export const SUBSCRIPTIONS_LOCK_KEY = 7310002;
export const HOST_ROLE = 'subscriptions';
/** How long a subscription may wait to move past events it does not read. */
const LAZY_WAKE_MS = 500;

export interface HostOptions {
  batchSize?: number;
  /** Fallback poll of each subscription, in case a wake-up was missed. */
  pollMs?: number;
  /** How often a standby process tries for the lock. */
  lockRetryMs?: number;
  heartbeatMs?: number;
  retry?: Partial<RetryPolicy>;
  onLive?: (updates: LiveUpdate[]) => void;
  onAdvanced?: (name: string, position: string) => void;
  logger?: SubscriptionLogger;
  /** Who this process is, in the health report. */
  owner?: string;
}

const silent: SubscriptionLogger = { log: () => undefined, warn: () => undefined, error: () => undefined };

export class CatchUpTimeoutError extends Error {
  constructor(readonly behind: string[]) {
    super(`Not caught up before the deadline: ${behind.join(', ')}`);
    this.name = 'CatchUpTimeoutError';
  }
}

/**
 * Runs every subscription in the process that holds the lock. Each has a loop of its own, so a slow or failing one
 * never holds the others back. Appends wake the loops; polling is the fallback. Losing the lock's connection stops the
 * loops at once, and the process goes back to trying for the lock, as a standby does. The compare-and-set on each
 * checkpoint keeps a batch already under way from being applied twice.
 */
export class SubscriptionHost {
  readonly runners: SubscriptionRunner[];
  private readonly signals = new Map<string, Signal>();
  private readonly stopSignal = new Signal();
  private readonly heldBack: HeldBackWatch;
  private readonly logger: SubscriptionLogger;
  private readonly batchSize: number;
  private readonly pollMs: number;
  private readonly lockRetryMs: number;
  private readonly heartbeatMs: number;
  private readonly owner: string;
  private stopped = false;
  private loop: Promise<void> | null = null;
  private holding = false;

  constructor(
    private readonly database: Database,
    private readonly store: EventStore,
    readonly subscriptions: readonly Subscription[],
    options: HostOptions = {},
  ) {
    const names = new Set<string>();
    for (const s of subscriptions) {
      if (names.has(s.name)) throw new Error(`Two subscriptions are named ${s.name}`);
      names.add(s.name);
      this.signals.set(s.name, new Signal());
    }
    this.heldBack = new HeldBackWatch(store);
    this.logger = options.logger ?? silent;
    this.batchSize = options.batchSize ?? 500;
    this.pollMs = options.pollMs ?? 1000;
    this.lockRetryMs = options.lockRetryMs ?? 2000;
    this.heartbeatMs = options.heartbeatMs ?? 5000;
    this.owner = options.owner ?? `${hostname()}:${process.pid}`;
    const retry: RetryPolicy = { attempts: 5, initialMs: 100, ...options.retry };
    this.runners = subscriptions.map(
      (s) =>
        new SubscriptionRunner(database, store, s, {
          batchSize: this.batchSize,
          retry,
          onLive: options.onLive,
          onAdvanced: options.onAdvanced,
          logger: this.logger,
        }),
    );
  }

  /** Whether this process holds the lock and runs the subscriptions now. */
  get active() {
    return this.holding;
  }

  /** Starts in the background: takes the lock when it can, runs the subscriptions while it holds it. */
  start(): void {
    if (this.loop) return;
    this.stopped = false;
    this.loop = this.run().catch((err: unknown) =>
      this.logger.error(`subscriptions stopped: ${safeErrorMessage(err)}`),
    );
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.stopSignal.notify();
    for (const signal of this.signals.values()) signal.notify();
    this.heldBack.stop();
    await this.loop;
    this.loop = null;
  }

  private async run(): Promise<void> {
    const backoff = new Backoff({ initialMs: 200, maxMs: this.lockRetryMs });
    while (!this.stopped) {
      let lock: HeldLock | null;
      try {
        lock = await this.database.tryAdvisoryLock(SUBSCRIPTIONS_LOCK_KEY);
      } catch (err) {
        this.logger.warn(`cannot reach the database for the subscriptions lock: ${safeErrorMessage(err)}`);
        await this.stopSignal.wait(backoff.next());
        continue;
      }
      if (!lock) {
        await this.stopSignal.wait(this.lockRetryMs);
        continue;
      }
      backoff.reset();
      await this.runHolding(lock);
    }
  }

  private async runHolding(lock: HeldLock): Promise<void> {
    let lost = false;
    const lostSignal = lock.lost.then(() => {
      lost = true;
      this.stopSignal.notify();
      for (const signal of this.signals.values()) signal.notify();
      this.heldBack.stop();
    });
    let unlisten: (() => Promise<void>) | null = null;
    let heartbeat: NodeJS.Timeout | null = null;
    const stillActive = () => !this.stopped && !lost;
    try {
      await this.prepare();
      unlisten = await this.store.onAppended((types) => this.wakeReaders(types));
      await this.beat(true);
      heartbeat = setInterval(() => void this.beat(false), this.heartbeatMs);
      this.holding = true;
      this.logger.log(
        `took the subscriptions lock (${this.owner}): running ${this.runners.map((r) => r.name).join(', ')}`,
      );
      await Promise.all(this.runners.map((runner) => this.follow(runner, stillActive)));
    } catch (err) {
      this.logger.warn(`subscriptions interrupted: ${safeErrorMessage(err)}`);
    } finally {
      this.holding = false;
      if (heartbeat) clearInterval(heartbeat);
      if (this.lazyTimer) clearTimeout(this.lazyTimer);
      this.lazyTimer = null;
      this.lazyWake.clear();
      await unlisten?.().catch(() => undefined);
      await lock.release();
      void lostSignal;
    }
    if (lost && !this.stopped) {
      this.logger.warn('lost the subscriptions lock (its connection ended); trying to take it again');
    } else if (!this.stopped) {
      await this.stopSignal.wait(this.lockRetryMs);
    }
  }

  /** Creates the checkpoints of subscriptions that have never run: projections at the start, reactions at the head. */
  async prepare(): Promise<void> {
    const head = await this.store.headPosition();
    for (const s of this.subscriptions) {
      const from = (s.startFrom ?? (s.kind === 'reaction' ? 'now' : 'beginning')) === 'now' ? head : null;
      await ensureCheckpoint(this.database, s.name, from);
    }
  }

  private async beat(acquired: boolean) {
    try {
      await this.database.query(
        `insert into subscription_hosts (role, owner, acquired_at, heartbeat_at) values ($1, $2, now(), now())
         on conflict (role) do update set owner = excluded.owner, heartbeat_at = now()
           ${acquired ? ', acquired_at = now()' : ''}`,
        [HOST_ROLE, this.owner],
      );
    } catch (err) {
      this.logger.warn(`heartbeat failed: ${safeErrorMessage(err)}`);
    }
  }

  private notify(name: string) {
    this.lazyWake.delete(name);
    this.signals.get(name)?.notify();
  }

  /**
   * Has these subscriptions read their checkpoints afresh and look now. A caller that waits for them to catch up, and
   * may have moved a checkpoint itself, then need not wait for a poll or a lazy wake.
   */
  wake(names: Iterable<string>) {
    for (const name of names) {
      this.runners.find((r) => r.name === name)?.idle();
      this.heldBack.release(name);
      this.notify(name);
    }
  }

  /** Subscriptions to wake a little later: something they do not read was appended, and only moves them on. */
  private readonly lazyWake = new Set<string>();
  private lazyTimer: NodeJS.Timeout | null = null;

  /**
   * New events: the subscriptions that read any of their types look at once. The others only have to move their
   * checkpoints past them, which waits up to LAZY_WAKE_MS and is done for all of them at once (`moveLazily`). So a busy
   * link's clicks wake two subscriptions, not all.
   */
  private wakeReaders(types: ReadonlySet<string> | null) {
    for (const runner of this.runners) {
      if (types === null || runner.subscription.handles.some((t) => types.has(t))) {
        this.notify(runner.name);
      } else {
        this.lazyWake.add(runner.name);
      }
    }
    if (this.lazyWake.size > 0 && !this.lazyTimer) {
      this.lazyTimer = setTimeout(() => {
        this.lazyTimer = null;
        const lazy = this.runners.filter((r) => this.lazyWake.has(r.name));
        this.lazyWake.clear();
        void moveLazily(this.database, this.store, lazy, this.batchSize).then((wake) => {
          for (const runner of wake) this.signals.get(runner.name)!.notify();
        });
      }, LAZY_WAKE_MS);
      this.lazyTimer.unref();
    }
  }

  /** One subscription's loop while the lock is held. */
  private async follow(runner: SubscriptionRunner, stillActive: () => boolean) {
    const signal = this.signals.get(runner.name)!;
    const failures = new Backoff({ initialMs: 100, maxMs: 5000 });
    while (stillActive()) {
      let step: StepResult;
      try {
        step = await runner.step();
        failures.reset();
      } catch (err) {
        if (!stillActive()) return;
        if (err instanceof CheckpointMovedError) continue;
        const transient = isTransientFailure(err);
        reportIfTimeout(err, `subscription ${runner.name}`);
        this.logger[transient ? 'warn' : 'error'](`${runner.name}: ${safeErrorMessage(err)}; trying again`);
        await signal.wait(failures.next());
        continue;
      }
      if (step.more) continue;
      if (step.moved) {
        await this.rest(runner, signal);
        continue;
      }
      // Nothing readable. When the head is further on, a transaction still open holds events back: the watch looks
      // again soon, for every subscription held back at once (appends meanwhile cannot make those events readable).
      const outcome = await this.heldBack.wait(runner.name, await runner.position(), stillActive);
      if (outcome === 'caught-up') await this.rest(runner, signal);
    }
  }

  /**
   * Waits for a wake-up. A whole poll interval without one (or without the host moving it past events it does not
   * read) means quiet: the next step reads the checkpoint afresh. So a reset for a rebuild while nothing was appended is
   * seen within a poll. While events come, the next move's check sees it.
   */
  private async rest(runner: SubscriptionRunner, signal: Signal) {
    while (!(await signal.wait(this.pollMs))) {
      if (!runner.takeMoved()) {
        runner.idle();
        return;
      }
    }
  }

  /**
   * Runs the named subscriptions (all by default) until each has read everything committed before the call, in this
   * process, without the loops: for the replay CLI and tests. The caller must hold the lock (or know nobody else runs
   * them). `onProgress` is told the events applied so far; answers their number.
   */
  async drain(
    options: { names?: readonly string[]; deadlineMs?: number; onProgress?: (applied: number) => void } = {},
  ): Promise<number> {
    const runners = options.names ? this.runners.filter((r) => options.names!.includes(r.name)) : this.runners;
    const target = await this.store.headPosition();
    if (target === null) return 0;
    await this.prepare();
    const deadline = Date.now() + (options.deadlineMs ?? 10 * 60_000);
    let total = 0;
    await Promise.all(
      runners.map(async (runner) => {
        for (;;) {
          const checkpoint = await runner.checkpoint();
          if (checkpoint !== null && this.store.comparePositions(checkpoint, target) >= 0) return;
          if (Date.now() > deadline) throw new CatchUpTimeoutError([runner.name]);
          const step = await runner.step();
          total += step.applied;
          options.onProgress?.(total);
          // Nothing readable yet: a transaction still open holds newer events back.
          if (!step.moved) await new Promise((r) => setTimeout(r, 10));
        }
      }),
    );
    return total;
  }
}
