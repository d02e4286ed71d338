import { Logger } from '@nestjs/common';
import { QueueName } from '@seatlink/contracts';
import { type Job, type JobsOptions, Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { RedisBreakers } from '../redis/redis-breakers.js';
import { closeRedis, createRedis, withinRedisBound } from '../redis/redis-client.js';
import {
  type AddJobOptions,
  assertValidJobOptions,
  describeError,
  type JobHandler,
  type JobCounts,
  type JobQueue,
  JobQueueClosedError,
  type JobQueueLogger,
  type ProcessOptions,
  type RepeatableState,
} from './queue.port.js';
import { throttledWarning } from '../../shared/throttled-warning.js';

export interface BullmqJobQueueOptions {
  redisUrl: string;
  /** Key prefix (`<prefix>:<queue>:...`), so deployments and test runs sharing one Redis never collide. */
  prefix: string;
  logger?: JobQueueLogger;
  /** How long a command of the producer side may take (REDIS_COMMAND_TIMEOUT_MS): `add` fails past it. */
  commandTimeoutMs?: number;
  /** A breaker in front of the producer's commands: after a timeout, `add` fails at once for a moment. */
  breakers?: RedisBreakers;
  /** The most `close` waits for each worker (running handlers included); default 15 s. */
  closeBoundMs?: number;
}

/**
 * Finished jobs are removed at once: a jobId is then free again, as on the embedded queue (BullMQ would otherwise
 * ignore a later job with the id of a kept one), and Redis does not grow. A job given up is logged instead.
 */
const REMOVE_FINISHED = { removeOnComplete: true, removeOnFail: true } satisfies JobsOptions;

/**
 * The job queue on Redis through BullMQ: many processes, jobs survive restarts, stalled jobs run again.
 *
 * Connections: one shared by every Queue (the producer side, bounded: a command fails after the command timeout, and at
 * once while Redis is away, so `add` never hangs a request — it fails, and the request answers 503), and per Worker the
 * two that BullMQ duplicates from a template with `maxRetriesPerRequest: null` (its blocking reads must wait out a
 * reconnect). BullMQ's ESM build cannot load ioredis from connection options, so it gets client instances.
 */
export class BullmqJobQueue implements JobQueue {
  private readonly producer: Redis;
  private readonly workerTemplate: Redis;
  private readonly queues = new Map<QueueName, Queue>();
  private readonly workers = new Map<QueueName, Worker>();
  /** Jobs this process's workers gave up after their last attempt (finished jobs are removed from Redis). */
  private readonly givenUp = new Map<QueueName, number>();
  private readonly prefix: string;
  private readonly logger: JobQueueLogger;
  /** While Redis is away every queue and worker reports each failed reconnect: one line per source per 10 s. */
  private readonly warn: (key: string, message: string) => void;
  private closing: Promise<void> | null = null;
  /** The most a producer call waits, connecting included (BullMQ waits for a connection without a bound). */
  private readonly boundMs: number;
  /** The connections BullMQ's workers made from the template (each worker's own and its blocking one). */
  private readonly workerClients = new Set<Redis>();
  /** The most a close waits for a worker: its running handlers, then its connections (see `closeWorker`). */
  private readonly closeBoundMs: number;

  constructor(options: BullmqJobQueueOptions) {
    this.prefix = options.prefix;
    this.logger = options.logger ?? new Logger('JobQueue');
    const logger = this.logger;
    this.warn = throttledWarning((message) => logger.warn(message));
    const commandTimeoutMs = options.commandTimeoutMs;
    this.producer = createRedis(options.redisUrl, 'commands', {
      role: 'job queue',
      commandTimeoutMs,
      breakers: options.breakers,
    });
    this.workerTemplate = createRedis(options.redisUrl, 'blocking', { role: 'job worker', lazyConnect: true });
    this.trackDuplicates(this.workerTemplate);
    this.boundMs = 3 * (commandTimeoutMs ?? 1000);
    this.closeBoundMs = options.closeBoundMs ?? 15_000;
  }

  /** Keeps each connection duplicated from `client` (BullMQ makes a worker's connections so), and theirs, in sight. */
  private trackDuplicates(client: Redis): void {
    const duplicate = client.duplicate.bind(client);
    client.duplicate = (...args: Parameters<Redis['duplicate']>) => {
      const copy = duplicate(...args);
      this.workerClients.add(copy);
      copy.once('end', () => this.workerClients.delete(copy));
      this.trackDuplicates(copy);
      return copy;
    };
  }

  async add(queue: QueueName, name: string, data: unknown, options: AddJobOptions = {}): Promise<void> {
    if (this.closing) throw new JobQueueClosedError();
    assertValidJobOptions(name, options);
    const q = this.queue(queue);
    const retry: JobsOptions = {
      attempts: options.attempts ?? 1,
      ...(options.backoff && { backoff: { type: options.backoff.type, delay: options.backoff.delayMs } }),
    };
    if (options.repeat) {
      await withinRedisBound(
        q.upsertJobScheduler(
          options.jobId ?? name,
          {
            every: options.repeat.everyMs,
            ...(options.delayMs ? { startDate: Date.now() + options.delayMs } : {}),
          },
          { name, data, opts: { ...REMOVE_FINISHED, ...retry } },
        ),
        this.boundMs,
        `adding ${name}`,
      );
      return;
    }
    await withinRedisBound(
      q.add(name, data, {
        ...REMOVE_FINISHED,
        ...retry,
        ...(options.jobId !== undefined && { jobId: options.jobId }),
        ...(options.delayMs ? { delay: options.delayMs } : {}),
      }),
      this.boundMs,
      `adding ${name}`,
    );
  }

  async repeatables(queue: QueueName): Promise<Map<string, RepeatableState>> {
    if (this.closing) throw new JobQueueClosedError();
    const q = this.queue(queue);
    const found = new Map<string, RepeatableState>();
    const page = 500;
    for (let start = 0; ; start += page) {
      const schedulers = await withinRedisBound(
        q.getJobSchedulers(start, start + page - 1, true),
        this.boundMs,
        'listing schedules',
      );
      for (const s of schedulers) found.set(s.key, { everyMs: s.every ?? null, nextAt: s.next ?? null });
      if (schedulers.length < page) return found;
    }
  }

  async process(queue: QueueName, handler: JobHandler, options: ProcessOptions = {}): Promise<void> {
    if (this.closing) throw new JobQueueClosedError();
    const concurrency = options.concurrency ?? 1;
    if (!(Number.isInteger(concurrency) && concurrency >= 1))
      throw new RangeError('concurrency must be an integer >= 1');
    if (options.lostAfterMs !== undefined && !(Number.isInteger(options.lostAfterMs) && options.lostAfterMs >= 100))
      throw new RangeError('lostAfterMs must be an integer >= 100');
    if (this.workers.has(queue)) throw new Error(`Queue ${queue} already has a handler in this process`);
    const worker = new Worker(
      queue,
      async (job: Job) => {
        // attemptsMade counts the tries that failed before this one; stalledCounter the times a process running it
        // died (its lock ran out and the stalled-job check put it back).
        await handler({
          id: job.id ?? '',
          name: job.name,
          data: job.data,
          attempt: job.attemptsMade + 1,
          resumed: job.stalledCounter > 0,
        });
      },
      {
        connection: this.workerTemplate,
        prefix: this.prefix,
        concurrency,
        ...(options.lostAfterMs !== undefined && {
          lockDuration: options.lostAfterMs,
          stalledInterval: Math.max(1, Math.floor(options.lostAfterMs / 2)),
        }),
      },
    );
    this.workers.set(queue, worker);
    worker.on('error', (err) =>
      this.warn(`worker:${queue}`, `Worker of queue ${queue}: ${describeError(err).message}`),
    );
    worker.on('failed', (job, err) => {
      if (!job) return;
      // 'failed' comes after every failed try; only the last one, with no retry ahead, is reported.
      const given = job.attemptsMade >= (job.opts.attempts ?? 1) || job.finishedOn !== undefined;
      if (!given) return;
      this.givenUp.set(queue, (this.givenUp.get(queue) ?? 0) + 1);
      const { message, stack } = describeError(err);
      this.logger.error(
        `Job ${queue}/${job.name} (${job.id}) failed on attempt ${job.attemptsMade} of ${job.opts.attempts ?? 1}, given up: ${message}`,
        stack,
      );
    });
    await worker.waitUntilReady();
  }

  async removeRepeatable(queue: QueueName, key: string): Promise<boolean> {
    if (this.closing) throw new JobQueueClosedError();
    return withinRedisBound(this.queue(queue).removeJobScheduler(key), this.boundMs, `removing ${key}`);
  }

  async counts(queue: QueueName): Promise<JobCounts> {
    const counts = await withinRedisBound(
      this.queue(queue).getJobCounts('waiting', 'active', 'delayed'),
      this.boundMs,
      'counting jobs',
    );
    return {
      waiting: counts.waiting ?? 0,
      active: counts.active ?? 0,
      delayed: counts.delayed ?? 0,
      failed: this.givenUp.get(queue) ?? 0,
    };
  }

  close(): Promise<void> {
    this.closing ??= this.shutDown();
    return this.closing;
  }

  private async shutDown(): Promise<void> {
    // Workers first: they stop fetching and wait for their running handlers, then close their own connections.
    await this.untilWorkerClientsLive();
    await Promise.allSettled([...this.workers.entries()].map(([queue, w]) => this.closeWorker(queue, w)));
    await Promise.allSettled([...this.queues.values()].map((q) => q.close()));
    this.workers.clear();
    this.queues.clear();
    await closeRedis(this.producer);
    this.workerTemplate.disconnect();
  }

  /**
   * BullMQ ends a worker's blocking read by dropping its connection and waiting for ioredis to say it ended; a
   * connection waiting out its reconnect delay (Redis just back, or away) has no socket, never says so, and the close
   * would wait for ever. Such connections get a moment to come back first (they retry at most 2 s apart).
   */
  private async untilWorkerClientsLive(): Promise<void> {
    const deadline = Date.now() + Math.min(this.closeBoundMs, 5000);
    const waiting = () =>
      [...this.workerClients].filter((c) => c.status === 'reconnecting' || c.status === 'connecting');
    while (waiting().length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  }

  /**
   * Closes a worker within `closeBoundMs`: past it (Redis away, so its connections cannot end as BullMQ waits for, or a
   * handler still running) it is left behind with a warning and the close goes on; a job it held is taken up again by
   * another worker once its lock runs out, as after a crash.
   */
  private async closeWorker(queue: QueueName, worker: Worker): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), this.closeBoundMs)));
    try {
      const outcome = await Promise.race([worker.close().then(() => 'closed' as const), bound]);
      if (outcome === 'late') {
        this.logger.warn(
          `Worker of queue ${queue} not closed within ${this.closeBoundMs} ms (Redis away, or a job still running): left behind`,
        );
      }
    } finally {
      clearTimeout(timer);
    }
  }

  /** BullMQ's queues, one per QueueName (the queue board shows them). */
  bullQueues(): Queue[] {
    return Object.values(QueueName).map((name) => this.queue(name));
  }

  private queue(name: QueueName): Queue {
    let queue = this.queues.get(name);
    if (!queue) {
      queue = new Queue(name, { connection: this.producer, prefix: this.prefix });
      queue.on('error', (err) => this.warn(`queue:${name}`, `Queue ${name}: ${describeError(err).message}`));
      this.queues.set(name, queue);
    }
    return queue;
  }
}
