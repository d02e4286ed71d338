import { type DynamicModule, Inject, Injectable, Logger, Module, type OnApplicationBootstrap } from '@nestjs/common';
import { DiscoveryModule, DiscoveryService } from '@nestjs/core';
import type { QueueName } from '@seatlink/contracts';
import { Metrics } from '../metrics/metrics.js';
import { providerMark } from '../../shared/provider-mark.js';
import { JOB_QUEUE, type JobQueue, type QueuedJob } from './queue.port.js';

/** One class per job: its `name` is the job name. Runs at least once per add, so it must be idempotent. */
export interface Job<Data = unknown> {
  readonly queue: QueueName;
  readonly name: string;
  /** When set, the job repeats on this schedule from the start of a processing process. */
  readonly every?: { ms: number };
  /** How many jobs of its queue one process runs at once (the largest of the queue's jobs counts); default 1. */
  readonly concurrency?: number;
  run(data: Data, job: QueuedJob<Data>): Promise<void>;
}

const jobs = providerMark<Job>('seatlink.job');

/** Class decorator: the class is a job, run wherever jobs are processed. Its module lists it among its providers. */
export const QueueJob = jobs.markClass;

/**
 * Processes every queue that has jobs (the job classes the feature modules provide), dispatching on the job name,
 * and upserts the repeating schedules.
 */
@Injectable()
export class JobRunner implements OnApplicationBootstrap {
  private readonly logger = new Logger('Jobs');

  constructor(
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
    private readonly discovery: DiscoveryService,
    private readonly metrics: Metrics,
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
        { concurrency },
      );
    }
    for (const job of jobs.filter((j) => j.every)) {
      await this.queue.add(job.queue, job.name, {}, { jobId: job.name, repeat: { everyMs: job.every!.ms } });
    }
    this.logger.log(`processing ${jobs.map((j) => j.name).join(', ')}`);
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
