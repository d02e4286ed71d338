import { Global, Inject, Injectable, Logger, Module, type DynamicModule, type OnModuleDestroy } from '@nestjs/common';
import { RedisBreakers } from '../redis/redis-breakers.js';
import { BullmqJobQueue } from './bullmq-job-queue.js';
import { EmbeddedJobQueue } from './embedded-job-queue.js';
import { JOB_QUEUE, type JobQueue } from './queue.port.js';

export interface QueueModuleOptions {
  /** BullMQ on this Redis; the in-process queue when absent. */
  redisUrl?: string;
  /** Redis key prefix of the queues; default `seatlink`. */
  prefix?: string;
  /** How long a producer command may take (REDIS_COMMAND_TIMEOUT_MS). */
  commandTimeoutMs?: number;
}

/**
 * Closes the queue in `onModuleDestroy`, the first shutdown phase: running handlers finish while the database and
 * the other adapters they call are still open (those close in `onApplicationShutdown`).
 */
@Injectable()
class JobQueueCloser implements OnModuleDestroy {
  constructor(@Inject(JOB_QUEUE) private readonly queue: JobQueue) {}

  async onModuleDestroy() {
    await this.queue.close();
  }
}

/** The job queue (JOB_QUEUE) for the whole application: BullMQ with a Redis URL, the in-process queue without. */
@Global()
@Module({})
export class QueueModule {
  static forRoot(options: QueueModuleOptions = {}): DynamicModule {
    return {
      module: QueueModule,
      global: true,
      providers: [
        {
          provide: JOB_QUEUE,
          // The breakers of the application (RedisModule); a context of this module alone has none.
          inject: [{ token: RedisBreakers, optional: true }],
          useFactory: (breakers: RedisBreakers | undefined): JobQueue => {
            const logger = new Logger('JobQueue');
            if (options.redisUrl) {
              const prefix = options.prefix ?? 'seatlink';
              logger.log(`BullMQ on Redis (REDIS_URL), keys under ${prefix}:`);
              return new BullmqJobQueue({
                redisUrl: options.redisUrl,
                prefix,
                logger,
                commandTimeoutMs: options.commandTimeoutMs,
                breakers,
              });
            }
            logger.log('in-process queue (no REDIS_URL): jobs do not survive a restart');
            return new EmbeddedJobQueue({ logger });
          },
        },
        JobQueueCloser,
      ],
      exports: [JOB_QUEUE],
    };
  }
}
