import {
  type DynamicModule,
  Inject,
  Injectable,
  Logger,
  Module,
  type ModuleMetadata,
  type OnApplicationBootstrap,
  type Type,
} from '@nestjs/common';
import type { QueueName } from '@seatlink/contracts';
import { JOB_QUEUE, type JobQueue, type QueuedJob } from './queue.port.js';

/** One class per job: its `name` is the job name. Runs at least once per add, so it must be idempotent. */
export interface Job<Data = unknown> {
  readonly queue: QueueName;
  readonly name: string;
  /** When set, the job repeats on this schedule from the start of a processing process. */
  readonly every?: { ms: number };
  run(data: Data, job: QueuedJob<Data>): Promise<void>;
}

export const JOBS = Symbol('Jobs');

/** Processes every queue that has jobs, dispatching on the job name, and upserts the repeating schedules. */
@Injectable()
export class JobRunner implements OnApplicationBootstrap {
  private readonly logger = new Logger('Jobs');

  constructor(
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
    @Inject(JOBS) private readonly jobs: Job[],
  ) {}

  async onApplicationBootstrap() {
    const byQueue = new Map<QueueName, Map<string, Job>>();
    for (const job of this.jobs) {
      const named = byQueue.get(job.queue) ?? new Map<string, Job>();
      named.set(job.name, job);
      byQueue.set(job.queue, named);
    }
    for (const [queue, named] of byQueue) {
      await this.queue.process(queue, async (queued) => {
        const job = named.get(queued.name);
        if (!job) throw new Error(`No job named ${queued.name} on queue ${queue}`);
        await job.run(queued.data, queued);
      });
    }
    for (const job of this.jobs.filter((j) => j.every)) {
      await this.queue.add(job.queue, job.name, {}, { jobId: job.name, repeat: { everyMs: job.every!.ms } });
    }
    this.logger.log(`processing ${this.jobs.map((j) => j.name).join(', ')}`);
  }
}

/** Registers job classes (with the modules their dependencies come from) in a process that processes jobs. */
@Module({})
export class JobsModule {
  static forRoot(options: { imports?: ModuleMetadata['imports']; jobs: Type<Job>[] }): DynamicModule {
    return {
      module: JobsModule,
      imports: options.imports ?? [],
      providers: [
        ...options.jobs,
        { provide: JOBS, inject: options.jobs, useFactory: (...jobs: Job[]) => jobs },
        JobRunner,
      ],
    };
  }
}
