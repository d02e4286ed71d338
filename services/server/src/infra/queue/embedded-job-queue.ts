import { AsyncResource } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import type { QueueName } from '@seatlink/contracts';
import {
  type AddJobOptions,
  assertValidJobOptions,
  type Backoff,
  backoffDelay,
  describeError,
  type JobHandler,
  type JobCounts,
  type JobQueue,
  JobQueueClosedError,
  type JobQueueLogger,
  type ProcessOptions,
  type RepeatableState,
} from './queue.port.js';

type JobState = 'delayed' | 'waiting' | 'active';

/** The longest wait one Node timer holds. */
const MAX_TIMER_MS = 2 ** 31 - 1;

interface EmbeddedJob {
  readonly id: string;
  name: string;
  /** The data as JSON, parsed afresh for every try (as BullMQ does), so a handler cannot change what a retry sees. */
  json: string | undefined;
  attempts: number;
  backoff: Backoff | undefined;
  /** Tries started so far. */
  started: number;
  state: JobState;
  timer: NodeJS.Timeout | null;
  /** The schedule this job is a run of, and the time (epoch ms) the run was due. */
  schedule: Schedule | null;
  dueAt: number;
}

interface Schedule {
  readonly key: string;
  name: string;
  json: string | undefined;
  attempts: number;
  backoff: Backoff | undefined;
  everyMs: number;
  /** The run not started yet, if any (the next one is made when it starts, as BullMQ's job schedulers do). */
  next: EmbeddedJob | null;
}

interface QueueState {
  handler: JobHandler | null;
  concurrency: number;
  running: number;
  /** Ready to run, oldest first. */
  readonly waiting: EmbeddedJob[];
  /** Every pending job (delayed, waiting, running, waiting for a retry) by id: the de-duplication index. */
  readonly jobs: Map<string, EmbeddedJob>;
  readonly schedules: Map<string, Schedule>;
  /** Jobs given up after their last attempt, since the start. */
  failed: number;
}

/**
 * The job queue of a single process without Redis: delay, repeat, retry with backoff, jobId de-duplication and
 * concurrency, in memory. Jobs do not survive a restart, which suits the no-configuration `npm start`; production runs
 * BullMQ. Timers keep the process alive until `close`, like BullMQ's connections do.
 */
export class EmbeddedJobQueue implements JobQueue {
  private readonly queues = new Map<QueueName, QueueState>();
  private readonly inFlight = new Set<Promise<void>>();
  private readonly logger: JobQueueLogger;
  private closing: Promise<void> | null = null;
  /**
   * The queue's own async context, where every job runs: a job added by a request does not run as part of it (as
   * with BullMQ, whose workers are elsewhere), so its log lines do not name the request.
   */
  private readonly context = new AsyncResource('seatlink.jobs');

  constructor(options: { logger?: JobQueueLogger } = {}) {
    this.logger = options.logger ?? new Logger('JobQueue');
  }

  async add(queue: QueueName, name: string, data: unknown, options: AddJobOptions = {}): Promise<void> {
    if (this.closing) throw new JobQueueClosedError();
    assertValidJobOptions(name, options);
    const state = this.state(queue);
    const json = toJson(data);
    if (options.repeat) {
      this.upsertSchedule(queue, state, name, json, options, options.repeat.everyMs);
      return;
    }
    if (options.jobId !== undefined && state.jobs.has(options.jobId)) return;
    const job: EmbeddedJob = {
      id: options.jobId ?? randomUUID(),
      name,
      json,
      attempts: options.attempts ?? 1,
      backoff: options.backoff,
      started: 0,
      state: 'delayed',
      timer: null,
      schedule: null,
      dueAt: 0,
    };
    state.jobs.set(job.id, job);
    this.enqueue(queue, state, job, options.delayMs ?? 0);
  }

  async process(queue: QueueName, handler: JobHandler, options: ProcessOptions = {}): Promise<void> {
    if (this.closing) throw new JobQueueClosedError();
    const concurrency = options.concurrency ?? 1;
    if (!(Number.isInteger(concurrency) && concurrency >= 1))
      throw new RangeError('concurrency must be an integer >= 1');
    const state = this.state(queue);
    if (state.handler) throw new Error(`Queue ${queue} already has a handler in this process`);
    state.handler = handler;
    state.concurrency = concurrency;
    this.pump(queue, state);
  }

  async removeRepeatable(queue: QueueName, key: string): Promise<boolean> {
    if (this.closing) throw new JobQueueClosedError();
    const state = this.queues.get(queue);
    const schedule = state?.schedules.get(key);
    if (!state || !schedule) return false;
    state.schedules.delete(key);
    if (schedule.next) this.drop(state, schedule.next);
    schedule.next = null;
    return true;
  }

  repeatables(queue: QueueName): Promise<Map<string, RepeatableState>> {
    if (this.closing) return Promise.reject(new JobQueueClosedError());
    const found = new Map<string, RepeatableState>();
    for (const [key, schedule] of this.queues.get(queue)?.schedules ?? []) {
      found.set(key, { everyMs: schedule.everyMs, nextAt: schedule.next?.dueAt ?? null });
    }
    return Promise.resolve(found);
  }

  counts(queue: QueueName): Promise<JobCounts> {
    const state = this.queues.get(queue);
    const counts: JobCounts = { waiting: 0, active: 0, delayed: 0, failed: state?.failed ?? 0 };
    for (const job of state?.jobs.values() ?? []) counts[job.state] += 1;
    return Promise.resolve(counts);
  }

  close(): Promise<void> {
    this.closing ??= this.shutDown();
    return this.closing;
  }

  private async shutDown(): Promise<void> {
    for (const state of this.queues.values()) {
      for (const job of state.jobs.values()) if (job.timer) clearTimeout(job.timer);
      state.waiting.length = 0;
      state.schedules.clear();
    }
    // Running handlers finish; what they would schedule next (retries, the next run) is dropped.
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
    this.queues.clear();
  }

  private state(queue: QueueName): QueueState {
    let state = this.queues.get(queue);
    if (!state) {
      state = {
        handler: null,
        concurrency: 1,
        running: 0,
        waiting: [],
        jobs: new Map(),
        schedules: new Map(),
        failed: 0,
      };
      this.queues.set(queue, state);
    }
    return state;
  }

  private upsertSchedule(
    queue: QueueName,
    state: QueueState,
    name: string,
    json: string | undefined,
    options: AddJobOptions,
    everyMs: number,
  ): void {
    const key = options.jobId ?? name;
    const template = { name, json, attempts: options.attempts ?? 1, backoff: options.backoff };
    const existing = state.schedules.get(key);
    if (existing && existing.everyMs === everyMs) {
      // Same rhythm: keep the timing, take the new template, also for the run not started yet.
      Object.assign(existing, template);
      if (existing.next) Object.assign(existing.next, template);
      return;
    }
    if (existing?.next) this.drop(state, existing.next);
    const schedule: Schedule = { key, ...template, everyMs, next: null };
    state.schedules.set(key, schedule);
    this.scheduleRun(queue, state, schedule, Date.now() + (options.delayMs ?? 0));
  }

  /** Makes the run of `schedule` due at `at` (epoch ms). */
  private scheduleRun(queue: QueueName, state: QueueState, schedule: Schedule, at: number): void {
    const job: EmbeddedJob = {
      // The id BullMQ gives a scheduler's run.
      id: `repeat:${schedule.key}:${at}`,
      name: schedule.name,
      json: schedule.json,
      attempts: schedule.attempts,
      backoff: schedule.backoff,
      started: 0,
      state: 'delayed',
      timer: null,
      schedule,
      dueAt: at,
    };
    schedule.next = job;
    state.jobs.set(job.id, job);
    this.enqueue(queue, state, job, Math.max(0, at - Date.now()));
  }

  private enqueue(queue: QueueName, state: QueueState, job: EmbeddedJob, delayMs: number): void {
    if (delayMs <= 0) {
      job.state = 'waiting';
      state.waiting.push(job);
      this.pump(queue, state);
      return;
    }
    job.state = 'delayed';
    // Node holds a timer at most 2^31 - 1 ms (24.8 days) and fires a longer one at once: a longer wait is waited in
    // parts.
    const wait = Math.min(delayMs, MAX_TIMER_MS);
    job.timer = setTimeout(() => {
      job.timer = null;
      if (delayMs > wait) {
        this.enqueue(queue, state, job, delayMs - wait);
        return;
      }
      job.state = 'waiting';
      state.waiting.push(job);
      this.pump(queue, state);
    }, wait);
  }

  /** Forgets a job that has not started (a running one just finishes). */
  private drop(state: QueueState, job: EmbeddedJob): void {
    if (job.state === 'active') return;
    if (job.timer) clearTimeout(job.timer);
    job.timer = null;
    const index = state.waiting.indexOf(job);
    if (index >= 0) state.waiting.splice(index, 1);
    state.jobs.delete(job.id);
  }

  private pump(queue: QueueName, state: QueueState): void {
    while (!this.closing && state.handler && state.running < state.concurrency) {
      const job = state.waiting.shift();
      if (!job) return;
      job.state = 'active';
      job.started += 1;
      state.running += 1;
      const handler = state.handler;
      const run = this.context.runInAsyncScope(() => this.run(queue, state, handler, job));
      this.inFlight.add(run);
      void run.finally(() => this.inFlight.delete(run));
    }
  }

  private async run(queue: QueueName, state: QueueState, handler: JobHandler, job: EmbeddedJob): Promise<void> {
    const schedule = job.schedule;
    if (job.started === 1 && schedule && schedule.next === job && state.schedules.get(schedule.key) === schedule) {
      this.scheduleRun(queue, state, schedule, nextRunAt(job.dueAt, schedule.everyMs));
    }
    try {
      // The handler starts on a later tick, never inside the caller of `add`.
      await Promise.resolve();
      const data: unknown = job.json === undefined ? undefined : JSON.parse(job.json);
      await handler({ id: job.id, name: job.name, data, attempt: job.started, resumed: false });
      state.jobs.delete(job.id);
    } catch (err) {
      if (job.started < job.attempts) {
        if (!this.closing) this.enqueue(queue, state, job, backoffDelay(job.backoff, job.started));
      } else {
        state.jobs.delete(job.id);
        state.failed += 1;
        const { message, stack } = describeError(err);
        this.logger.error(
          `Job ${queue}/${job.name} (${job.id}) failed on attempt ${job.started} of ${job.attempts}, given up: ${message}`,
          stack,
        );
      }
    } finally {
      state.running -= 1;
      this.pump(queue, state);
    }
  }
}

/** The next slot on the schedule's grid that is not in the past (missed runs are skipped, not caught up). */
function nextRunAt(due: number, everyMs: number): number {
  const now = Date.now();
  const next = due + everyMs;
  return next >= now ? next : now + everyMs - ((now - due) % everyMs);
}

/** The data as it travels through Redis (BullMQ stores `JSON.stringify(data)`): Dates become strings, and so on. */
function toJson(data: unknown): string | undefined {
  return data === undefined ? undefined : JSON.stringify(data);
}
