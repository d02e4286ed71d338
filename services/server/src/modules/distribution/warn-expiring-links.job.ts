import { Inject, Injectable, Logger } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { LINK_EXPIRING_WITHIN_MS, QueueName } from '@seatlink/contracts';
import pLimit from 'p-limit';
import { v5 as uuidv5 } from 'uuid';
import { DATABASE } from '../../infra/db/database.module.js';
import type { Database } from '../../infra/db/database.js';
import { safeErrorMessage } from '../../infra/db/db-errors.js';
import { type Job, QueueJob } from '../../infra/queue/jobs.module.js';
import type { TicketDistributionCommand } from './distribution.decider.js';
import { TicketDistributionCommandMessage } from './ticket-distribution.command.js';
import { clock } from '../../shared/clock.js';

/** Links told of per run at most (the next run takes the rest). */
const BATCH = 1000;
/** Expiries passed longer ago than this are not recorded any more (links that expired before LinkExpired was). */
const EXPIRED_LOOKBACK = '7 days';
/** The commands this job sends. */
type TimedCommand = Extract<TicketDistributionCommand, { type: 'WarnExpiry' | 'MarkExpired' }>;
const WARN_ID_NAMESPACE = 'b6f1d2c4-8e3a-4f7b-9c5d-2a1e0f9b8c7d';

interface ExpiringRow {
  distribution_id: string;
  ticket_id: string;
  expires_at: Date | string;
}

/**
 * Every five minutes: the live links that expire within a day, whose owner has not been told of that expiry, get a
 * WarnExpiry on their ticket's stream (which decides, once per expiry; the notification centre tells the owner). A
 * link whose clicks are all used is left alone: it will not be claimed again anyway. Run twice, it tells nobody twice:
 * the command's id is the link and its expiry, and the stream says it was told. Then the live links whose expiry has
 * passed get a MarkExpired (LinkExpired, once per expiry: what the `link.expired` webhook tells).
 */
@Injectable()
@QueueJob()
export class WarnExpiringLinksJob implements Job {
  readonly queue = QueueName.Maintenance;
  readonly name = 'warn-expiring-links';
  readonly every = { ms: 5 * 60 * 1000 };
  private readonly logger = new Logger('ExpiringLinks');

  constructor(
    @Inject(DATABASE) private readonly database: Database,
    private readonly commandBus: CommandBus,
  ) {}

  async run(): Promise<void> {
    const now = clock.now();
    await this.warnDue(now);
    await this.markExpired(now);
  }

  /**
   * Records the live links whose expiry passed by `now` (LinkExpired, once per expiry; the command's id is the link
   * and its expiry); answers how many. Claimed to its limit or not, an expired link is recorded: its owner's systems
   * may wait for it.
   */
  async markExpired(now: Date): Promise<number> {
    const rows = await this.database.query<ExpiringRow>(
      `select distribution_id, ticket_id, expires_at from links
        where recalled_at is null and expires_at is not null and expires_at <= $1
          and expires_at > $1::timestamptz - interval '${EXPIRED_LOOKBACK}'
          and expired_for is distinct from expires_at
        order by expires_at limit ${BATCH}`,
      [now.toISOString()],
    );
    return this.each(rows, 'its expiry was not recorded', (row, expiresAt) => ({
      command: {
        type: 'MarkExpired',
        data: { ticketId: row.ticket_id, distributionId: row.distribution_id, expiresAt, now: now.toISOString() },
      },
      commandId: uuidv5(`expired/${row.distribution_id}/${expiresAt}`, WARN_ID_NAMESPACE),
    }));
  }

  /** Warns of the links due at `now`; answers how many were told. */
  async warnDue(now: Date): Promise<number> {
    const rows = await this.database.query<ExpiringRow>(
      `select distribution_id, ticket_id, expires_at from links
        where recalled_at is null and expires_at is not null
          and expires_at > $1 and expires_at <= $2
          and expiry_warned_for is distinct from expires_at
          and (max_clicks is null or clicks < max_clicks)
        order by expires_at limit ${BATCH}`,
      [now.toISOString(), new Date(now.getTime() + LINK_EXPIRING_WITHIN_MS).toISOString()],
    );
    return this.each(rows, 'its expiry warning was not recorded', (row, expiresAt) => ({
      command: {
        type: 'WarnExpiry',
        data: { ticketId: row.ticket_id, distributionId: row.distribution_id, expiresAt, now: now.toISOString() },
      },
      commandId: uuidv5(`${row.distribution_id}/${expiresAt}`, WARN_ID_NAMESPACE),
    }));
  }

  /** Sends each row's command, four at a time; answers how many recorded an event. A failure waits for the next run. */
  private async each(
    rows: readonly ExpiringRow[],
    failure: string,
    commandOf: (row: ExpiringRow, expiresAt: string) => { command: TimedCommand; commandId: string },
  ): Promise<number> {
    const limit = pLimit(4);
    let recorded = 0;
    await Promise.all(
      rows.map((row) =>
        limit(async () => {
          const { command, commandId } = commandOf(row, new Date(row.expires_at).toISOString());
          try {
            const result = await this.commandBus.execute(new TicketDistributionCommandMessage(command, { commandId }));
            if (result.events.length > 0) recorded++;
          } catch (err) {
            // The next run tries again.
            this.logger.warn(`link ${row.distribution_id}: ${failure}: ${safeErrorMessage(err)}`);
          }
        }),
      ),
    );
    return recorded;
  }
}
