import { Inject, Injectable } from '@nestjs/common';
import { QueueName } from '@seatlink/contracts';
import { DATABASE } from '../../infra/db/database.module.js';
import type { Database } from '../../infra/db/database.js';
import { type Job, QueueJob } from '../../infra/queue/jobs.module.js';

/** How long a removed ticket is kept for GET /v1/tickets?since= (a client away longer gets every ticket again). */
export const REMOVED_TICKETS_KEPT_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * Forgets the tickets that left more than REMOVED_TICKETS_KEPT_MS ago, every hour, and raises the floor of
 * `removed_tickets` to the newest version it forgot, in the same statement: a client holding a version from before
 * then is answered in full, never told too little.
 */
@Injectable()
@QueueJob()
export class PurgeRemovedTicketsJob implements Job {
  readonly queue = QueueName.Maintenance;
  readonly name = 'purge-removed-tickets';
  readonly every = { ms: 60 * 60 * 1000 };

  constructor(@Inject(DATABASE) private readonly database: Database) {}

  async run() {
    await this.purge(REMOVED_TICKETS_KEPT_MS);
  }

  /** Forgets the tickets removed more than `keptMs` ago; answers how many. */
  async purge(keptMs: number): Promise<number> {
    const [row] = await this.database.query<{ purged: number }>(
      `with gone as (
         delete from removed_tickets where removed_at <= now() - ($1 || ' milliseconds')::interval returning version
       ), raised as (
         select seatlink_raise_version_floor_to('removed_tickets', max(version)) from gone having count(*) > 0
       )
       select (select count(*) from gone)::int as purged, (select count(*) from raised)::int as raised`,
      [String(keptMs)],
    );
    return row?.purged ?? 0;
  }
}
