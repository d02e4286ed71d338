import { Inject, Injectable, Logger } from '@nestjs/common';
import { QueueName } from '@seatlink/contracts';
import type { Database } from '../db/database.js';
import { DATABASE } from '../db/database.module.js';
import { type Job, QueueJob } from '../queue/jobs.module.js';
import { MAKE_CLAIM_PARTITIONS_SQL } from './event-store.routines.js';

/** How often the claims' months are looked at (each start makes them too). */
const EVERY_MS = 6 * 60 * 60 * 1000;

/**
 * Keeps the claims' monthly partitions of the event log made ahead of need (docs/architecture.md, "The event log's
 * partitions"), so a process that runs for months without a restart never writes clicks to the default partition; a
 * month the default already took rows of is made with them.
 */
@Injectable()
@QueueJob()
export class EventLogPartitionsJob implements Job {
  static readonly jobName = 'event-log-partitions';
  readonly queue = QueueName.Maintenance;
  readonly name = EventLogPartitionsJob.jobName;
  readonly every = { ms: EVERY_MS };
  private readonly logger = new Logger('EventLog');

  constructor(@Inject(DATABASE) private readonly database: Database) {}

  async run() {
    const [row] = await this.database.query<{ made: number }>(MAKE_CLAIM_PARTITIONS_SQL, []);
    if (row && row.made > 0) this.logger.log(`made ${row.made} month(s) of the claims' partitions`);
    const [left] = await this.database.query<{ n: string }>(
      'select count(*)::text as n from (select 1 from events_claims_default limit 1000) d',
      [],
    );
    if (left && left.n !== '0') {
      this.logger.warn(
        `the claims' default partition holds ${left.n === '1000' ? '1,000+' : left.n} click(s) no month took`,
      );
    }
  }
}
