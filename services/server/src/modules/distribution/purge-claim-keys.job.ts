import { Inject, Injectable } from '@nestjs/common';
import { QueueName } from '@seatlink/contracts';
import { DATABASE } from '../../infra/db/database.module.js';
import type { Database } from '../../infra/db/database.js';
import { IDEMPOTENCY_TTL_MS } from '../../infra/http/idempotency.interceptor.js';
import { type Job, QueueJob } from '../../infra/queue/jobs.module.js';

/** Forgets the Idempotency-Keys of counted claims once their 24 hours are over (as every other key), every hour. */
@Injectable()
@QueueJob()
export class PurgeClaimKeysJob implements Job {
  readonly queue = QueueName.Maintenance;
  readonly name = 'purge-claim-keys';
  readonly every = { ms: 60 * 60 * 1000 };

  constructor(@Inject(DATABASE) private readonly database: Database) {}

  async run() {
    await this.database.query(
      `delete from link_claim_keys where claimed_at < now() - ($1 || ' milliseconds')::interval`,
      [String(IDEMPOTENCY_TTL_MS)],
    );
  }
}
