import { Inject, Injectable, Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { ReadFloorInterceptor } from './read-floor.interceptor.js';
import { QueueName } from '@seatlink/contracts';
import { DATABASE } from '../db/database.module.js';
import type { Database } from '../db/database.js';
import { type Job, QueueJob } from '../queue/jobs.module.js';
import { IdempotencyInterceptor } from './idempotency.interceptor.js';
import { PendingInterceptor } from './pending.interceptor.js';

/** Deletes the answers kept for Idempotency-Keys once their 24 hours are over, every hour. */
@Injectable()
@QueueJob()
export class PurgeIdempotencyKeysJob implements Job {
  readonly queue = QueueName.Maintenance;
  readonly name = 'purge-idempotency-keys';
  readonly every = { ms: 60 * 60 * 1000 };

  constructor(@Inject(DATABASE) private readonly database: Database) {}

  async run() {
    await this.database.query('delete from idempotency_keys where expires_at < now()');
  }
}

/**
 * What every HTTP call passes through besides the guard: Idempotency-Key handling (outermost, so it keeps the final
 * answer) and the 202 of answers whose change is not visible yet.
 */
@Module({
  providers: [
    { provide: APP_INTERCEPTOR, useClass: IdempotencyInterceptor },
    { provide: APP_INTERCEPTOR, useClass: PendingInterceptor },
    { provide: APP_INTERCEPTOR, useClass: ReadFloorInterceptor },
    PurgeIdempotencyKeysJob,
  ],
})
export class HttpModule {}
