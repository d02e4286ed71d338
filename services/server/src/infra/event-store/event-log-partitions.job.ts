import { Inject, Injectable, Logger } from '@nestjs/common';
import { QueueName } from '@seatlink/contracts';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import type { Database } from '../db/database.js';
import { DATABASE } from '../db/database.module.js';
import { type Job, QueueJob } from '../queue/jobs.module.js';
import { MAKE_CLAIM_PARTITIONS_SQL } from './event-store.routines.js';

/** How often the claims' months are looked at (each start makes them too). */
const EVERY_MS = 6 * 60 * 60 * 1000;

/** The claims' months still in the log that ended at least $1 days ago, oldest first. */
const MONTHS_TO_COMPACT_SQL = `
  select m.month from (
    select (to_date(right(c.relname, 7), 'YYYY_MM')::timestamp at time zone 'UTC') as month
    from pg_inherits i join pg_class c on c.oid = i.inhrelid
    where i.inhparent = 'events_claims'::regclass and c.relname ~ '^events_claims_[0-9]{4}_[0-9]{2}$'
  ) m
  where m.month + interval '1 month' <= now() - make_interval(days => $1::integer)
  order by m.month`;

/**
 * The event log's upkeep (docs/architecture.md, "The event log's partitions" and "Compacted claims"): the claims'
 * monthly partitions made ahead of need, so a process that runs for months without a restart never writes clicks to
 * the default partition (a month the default already took rows of is made with them); and, with
 * EVENT_LOG_COMPACT_AFTER_DAYS, the months past it compacted and detached, by the database's clock.
 */
@Injectable()
@QueueJob()
export class EventLogPartitionsJob implements Job {
  static readonly jobName = 'event-log-partitions';
  readonly queue = QueueName.Maintenance;
  readonly name = EventLogPartitionsJob.jobName;
  readonly every = { ms: EVERY_MS };
  private readonly logger = new Logger('EventLog');

  constructor(
    @Inject(DATABASE) private readonly database: Database,
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'EVENT_LOG_COMPACT_AFTER_DAYS'>,
  ) {}

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
    if (this.config.EVENT_LOG_COMPACT_AFTER_DAYS > 0) await this.compact(this.config.EVENT_LOG_COMPACT_AFTER_DAYS);
  }

  /** Compacts the months that ended at least `days` ago, one transaction each; answers the events compacted. */
  async compact(days: number): Promise<number> {
    const months = await this.database.query<{ month: Date }>(MONTHS_TO_COMPACT_SQL, [days]);
    let total = 0;
    for (const { month } of months) {
      const [done] = await this.database.maintenance<{ n: string }>(
        'select seatlink_compact_claims_month($1)::text as n',
        [month],
      );
      const n = Number(done?.n ?? 0);
      const name = `events_claims_${month.toISOString().slice(0, 7).replace('-', '_')}`;
      if (n < 0) {
        this.logger.warn(`${name} not compacted now: its lock was held (the next run tries again)`);
        continue;
      }
      total += n;
      this.logger.log(
        `compacted ${n} click event(s) of ${name}; its table is detached: archive it (pg_dump -t ${name}) and drop it`,
      );
    }
    return total;
  }
}
