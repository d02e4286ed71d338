/**
 * The job-queue port. Adapters: BullMQ on Redis (bullmq-job-queue.ts) when REDIS_URL is set, and an in-process queue
 * for a single process (embedded-job-queue.ts) otherwise. Both pass the same contract suite (job-queue.contract.ts).
 *
 * Delivery is at least once: BullMQ runs a stalled job again, and a job may be cut short by a crash. Handlers must be
 * idempotent.
 */
import type { QueueName } from '@seatlink/contracts';

export interface Backoff {
  /** fixed: `delayMs` before every retry; exponential: `delayMs * 2^(n-1)` after the n-th failed attempt (BullMQ's). */
  type: 'fixed' | 'exponential';
  delayMs: number;
}

export interface AddJobOptions {
  /**
   * De-duplication key. While a job with this id is pending (waiting, delayed, running or waiting for a retry), adding
   * another job with the same id is a no-op; once it has completed or finally failed, the id may be used again.
   * BullMQ's rules apply to its shape: not an integer, no ':'. For a repeatable job it names the schedule instead.
   */
  jobId?: string;
  /** Run no earlier than this many milliseconds from now (with `repeat`: the first run). */
  delayMs?: number;
  /** Tries in all, the first included; default 1 (no retry). */
  attempts?: number;
  /** Wait between tries; none means retry at once. */
  backoff?: Backoff;
  /**
   * Repeat every `everyMs`, the first run at once (or after `delayMs`), until `removeRepeatable`. The schedule is keyed
   * by `jobId ?? name` and upserted: adding it again (every process start does) replaces its data and options, never
   * doubles it. A run that is not started yet is not joined by the next one, so a queue without a worker does not
   * pile them up.
   */
  repeat?: { everyMs: number };
}

/** One try of a job, as the handler sees it. */
export interface QueuedJob<Data = unknown> {
  id: string;
  name: string;
  /** The data as added, after a JSON round trip (as it travels through Redis): plain JSON values only. */
  data: Data;
  /** 1 for the first try, 2 for the first retry, ... */
  attempt: number;
  /**
   * This try was started before, by a process that died mid-job (killed, or silent past `lostAfterMs`) and so never
   * finished it; BullMQ found it stalled and runs it again. What the dead try held may still look held for a moment.
   * Always false on the in-process queue (its process is the one that died).
   */
  resumed: boolean;
}

/** Resolve to complete the job; throw (reject) to fail this try: it is retried while attempts remain. */
export type JobHandler = (job: QueuedJob) => Promise<void>;

export interface ProcessOptions {
  /** How many jobs of this queue run at once in this process; default 1. */
  concurrency?: number;
  /**
   * How long a running job stays its process's without word from it: the process renews its hold every half of this,
   * and every half of this another process looks for jobs whose hold ran out and runs them again (`resumed`). So a job
   * whose process died runs again within about 1.5 times this. Default 30 s (BullMQ's lock and stalled-job check).
   * Meaningless on the in-process queue.
   */
  lostAfterMs?: number;
}

/** Where adapters report a job given up after its last attempt, and infrastructure errors. Nest's Logger fits. */
export interface JobQueueLogger {
  error(message: string, stack?: string): void;
  warn(message: string): void;
}

export interface JobQueue {
  /** Adds a job (or upserts a schedule, with `repeat`). Resolves once the job is stored. */
  add(queue: QueueName, name: string, data: unknown, options?: AddJobOptions): Promise<void>;

  /**
   * Runs `handler` for every job of `queue`, jobs added before included, until `close`. One handler per queue per
   * process: it dispatches on `job.name`.
   */
  process(queue: QueueName, handler: JobHandler, options?: ProcessOptions): Promise<void>;

  /**
   * Stops a repeatable job (key: its `jobId ?? name`); false when there is no such schedule. Its next run is dropped
   * unless it is already due (BullMQ may still start that one), and a running one finishes.
   */
  removeRepeatable(queue: QueueName, key: string): Promise<boolean>;

  /**
   * The repeating schedules of the queue that exist now, by key: what a lost Redis no longer has (the job runner
   * makes them again from what the database says must exist).
   */
  repeatables(queue: QueueName): Promise<Map<string, RepeatableState>>;

  /**
   * How many jobs of the queue are waiting, running and delayed (all processes), and how many this process gave up
   * after their last attempt since it started. For metrics.
   */
  counts(queue: QueueName): Promise<JobCounts>;

  /** Stops taking jobs, waits for the running handlers to finish, and releases timers and connections. Idempotent. */
  close(): Promise<void>;
}

/** A repeating schedule as it stands: its rhythm and when its next run is due (epoch ms), when known. */
export interface RepeatableState {
  everyMs: number | null;
  nextAt: number | null;
}

export interface JobCounts {
  waiting: number;
  active: number;
  delayed: number;
  failed: number;
}

export const JOB_QUEUE = Symbol('JobQueue');

export class JobQueueClosedError extends Error {
  constructor() {
    super('The job queue is closed');
    this.name = 'JobQueueClosedError';
  }
}

/**
 * Refuses options that one adapter would reject or misread, so a mistake shows up on the embedded queue too and not
 * only in production on BullMQ.
 */
export function assertValidJobOptions(name: string, options: AddJobOptions): void {
  const fail = (why: string) => {
    throw new RangeError(`Job ${name}: ${why}`);
  };
  if (!name) fail('the name must not be empty');
  const { jobId, delayMs, attempts, backoff, repeat } = options;
  if (jobId !== undefined) {
    if (jobId === '' || /^-?\d+$/.test(jobId)) fail(`jobId ${JSON.stringify(jobId)} must be a non-integer string`);
    if (jobId.includes(':')) fail(`jobId ${JSON.stringify(jobId)} must not contain ':'`);
  }
  if (repeat && jobId === undefined && name.includes(':')) fail(`a repeat key must not contain ':'`);
  if (delayMs !== undefined && !(Number.isFinite(delayMs) && delayMs >= 0)) fail('delayMs must be a number >= 0');
  if (attempts !== undefined && !(Number.isInteger(attempts) && attempts >= 1))
    fail('attempts must be an integer >= 1');
  if (backoff && !(Number.isFinite(backoff.delayMs) && backoff.delayMs >= 0)) fail('backoff.delayMs must be >= 0');
  if (backoff && backoff.type !== 'fixed' && backoff.type !== 'exponential') fail('backoff.type is fixed|exponential');
  if (repeat && !(Number.isFinite(repeat.everyMs) && repeat.everyMs > 0)) fail('repeat.everyMs must be > 0');
}

/** Milliseconds to wait after the `failedAttempt`-th try failed (BullMQ's built-in strategies, without jitter). */
export function backoffDelay(backoff: Backoff | undefined, failedAttempt: number): number {
  if (!backoff) return 0;
  if (backoff.type === 'fixed') return backoff.delayMs;
  return Math.round(2 ** (failedAttempt - 1) * backoff.delayMs);
}

/** A thrown value as a message and, when there is one, a stack. */
export function describeError(err: unknown): { message: string; stack?: string } {
  if (err instanceof Error) return { message: err.message, stack: err.stack };
  return { message: String(err) };
}
