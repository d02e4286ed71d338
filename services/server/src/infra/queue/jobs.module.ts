import { randomInt } from 'node:crypto';
import {
  type DynamicModule,
  Inject,
  Injectable,
  Logger,
  Module,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { DiscoveryModule, DiscoveryService } from '@nestjs/core';
import type { QueueName } from '@seatlink/contracts';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { safeErrorMessage } from '../db/db-errors.js';
import { Metrics } from '../metrics/metrics.js';
import { inTurns } from '../../shared/in-turns.js';
import { providerMark } from '../../shared/provider-mark.js';
import { type Backoff, JOB_QUEUE, type JobQueue, type QueuedJob } from './queue.port.js';

/** One class per job: its `name` is the job name. Runs at least once per add, so it must be idempotent. */
export interface Job<Data = unknown> {
  readonly queue: QueueName;
  readonly name: string;
  /** When set, the job repeats on this schedule from the start of a processing process. */
  readonly every?: { ms: number };
  /** How many jobs of its queue one process runs at once (the largest of the queue's jobs counts); default 1. */
  readonly concurrency?: number;
  /**
   * How soon a run whose process died is run again by another (ProcessOptions.lostAfterMs; the shortest of the
   * queue's jobs counts); default the queue's (30 s).
   */
  readonly lostAfterMs?: number;
  run(data: Data, job: QueuedJob<Data>): Promise<void>;
}

const jobs = providerMark<Job>('seatlink.job');

/** Class decorator: the class is a job, run wherever jobs are processed. Its module lists it among its providers. */
export const QueueJob = jobs.markClass;

/** A repeating job that must exist because the database says so (an account's periodic sync). */
export interface ExpectedSchedule {
  queue: QueueName;
  name: string;
  /** The schedule's key (its jobId). */
  key: string;
  data: unknown;
  everyMs: number;
  attempts?: number;
  backoff?: Backoff;
  /** When made again, its first run falls somewhere in the first `spreadMs` (so many schedules do not run at once). */
  spreadMs?: number;
}

/**
 * A provider that says which repeating jobs must exist, from the database: the job runner makes again those the queue
 * lost (a Redis that lost its data keeps no schedule, and nothing else would bring them back).
 */
export interface ScheduleSource {
  expectedSchedules(): Promise<ExpectedSchedule[]>;
}

const scheduleSources = providerMark<ScheduleSource>('seatlink.job-schedules');

/** Repeating schedules made at once when some are missing (each is a round trip to the queue). */
const SCHEDULES_MADE_AT_ONCE = 16;

/** Class decorator: the class is a ScheduleSource. Its module lists it among its providers. */
export const JobSchedules = scheduleSources.markClass;

/**
 * Processes every queue that has jobs (the job classes the feature modules provide), dispatching on the job name,
 * and keeps the repeating schedules. The schedules live in the queue (in Redis with BullMQ), which may lose them: at
 * start and every JOB_SCHEDULES_CHECK_MS it makes those missing or at another rhythm — the jobs' own (`every`) and
 * what the schedule sources say must exist. A Redis that is away at start delays this to the next check; it does not
 * stop the process.
 */
@Injectable()
export class JobRunner implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Jobs');
  private timer: NodeJS.Timeout | null = null;
  private checking: Promise<number> | null = null;

  constructor(
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
    private readonly discovery: DiscoveryService,
    private readonly metrics: Metrics,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  jobs(): Job[] {
    return jobs.found(this.discovery);
  }

  async onApplicationBootstrap() {
    const jobs = this.jobs();
    const byQueue = new Map<QueueName, Map<string, Job>>();
    for (const job of jobs) {
      const named = byQueue.get(job.queue) ?? new Map<string, Job>();
      if (named.has(job.name)) throw new Error(`Two jobs are named ${job.name} on queue ${job.queue}`);
      named.set(job.name, job);
      byQueue.set(job.queue, named);
    }
    for (const [queue, named] of byQueue) {
      const concurrency = Math.max(1, ...[...named.values()].map((j) => j.concurrency ?? 1));
      const lost = [...named.values()].flatMap((j) => (j.lostAfterMs === undefined ? [] : [j.lostAfterMs]));
      await this.queue.process(
        queue,
        async (queued) => {
          const job = named.get(queued.name);
          if (!job) throw new Error(`No job named ${queued.name} on queue ${queue}`);
          try {
            await job.run(queued.data, queued);
            this.metrics.jobRuns.inc({ queue, job: queued.name, outcome: 'done' });
          } catch (err) {
            this.metrics.jobRuns.inc({ queue, job: queued.name, outcome: 'failed' });
            throw err;
          }
        },
        { concurrency, ...(lost.length > 0 && { lostAfterMs: Math.min(...lost) }) },
      );
    }
    this.logger.log(`processing ${jobs.map((j) => j.name).join(', ')}`);
    const check = () =>
      this.ensureSchedules().catch((err: unknown) =>
        this.logger.warn(`could not check the repeating schedules: ${safeErrorMessage(err)}`),
      );
    await check();
    this.timer = setInterval(() => void check(), this.config.JOB_SCHEDULES_CHECK_MS);
    this.timer.unref();
  }

  onModuleDestroy() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /**
   * Makes the repeating schedules that should exist and the queue does not have (lost, or never made), or has at
   * another rhythm (its setting changed); answers how many it made.
   */
  ensureSchedules(): Promise<number> {
    this.checking ??= this.makeMissingSchedules().finally(() => (this.checking = null));
    return this.checking;
  }

  private async makeMissingSchedules(): Promise<number> {
    const expected: ExpectedSchedule[] = this.jobs()
      .filter((j) => j.every)
      .map((j) => ({ queue: j.queue, name: j.name, key: j.name, data: {}, everyMs: j.every!.ms }));
    for (const source of scheduleSources.found(this.discovery)) expected.push(...(await source.expectedSchedules()));
    const made: string[] = [];
    for (const queue of new Set(expected.map((e) => e.queue))) {
      const existing = await this.queue.repeatables(queue);
      const wanted = (e: ExpectedSchedule) => e.queue === queue && existing.get(e.key)?.everyMs !== e.everyMs;
      const missing = expected.filter(wanted);
      // A few at a time (a queue that lost its data lacks one per linked account: one after the other, the process
      // would start only after thousands of round trips), each turn settled before the next starts.
      await inTurns(missing, SCHEDULES_MADE_AT_ONCE, async (schedule) => {
        await this.queue.add(schedule.queue, schedule.name, schedule.data, {
          jobId: schedule.key,
          repeat: { everyMs: schedule.everyMs },
          ...(schedule.attempts ? { attempts: schedule.attempts } : {}),
          ...(schedule.backoff ? { backoff: schedule.backoff } : {}),
          ...(schedule.spreadMs ? { delayMs: randomInt(Math.max(1, schedule.spreadMs)) } : {}),
        });
        made.push(schedule.key);
      });
    }
    if (made.length > 0) {
      const shown = made.slice(0, 5).join(', ') + (made.length > 5 ? ` and ${made.length - 5} more` : '');
      this.logger.log(`made ${made.length} repeating schedule(s) the queue did not have as they should be: ${shown}`);
    }
    return made.length;
  }
}

/** Runs the jobs that the feature modules provide, in a process that processes jobs (`run`). */
@Module({})
export class JobsModule {
  static forRoot(options: { run: boolean }): DynamicModule {
    return {
      module: JobsModule,
      imports: [DiscoveryModule],
      providers: options.run ? [JobRunner] : [],
    };
  }
}
