import { createHash } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import pLimit from 'p-limit';
import { APP_CONFIG, type AppConfig } from '../../infra/config/config.js';
import { safeErrorMessage } from '../../infra/db/db-errors.js';
import { DATABASE } from '../../infra/db/database.module.js';
import type { Database } from '../../infra/db/database.js';
import { EVENT_STORE, type EventStore, latestPosition } from '../../infra/event-store/event-store.port.js';
import type { CommandMeta } from '../../shared/event-sourcing/aggregate-command.js';
import type { DomainError } from '../../shared/event-sourcing/decider.js';
import { balanceAfter, CreditsCommandMessage } from '../credits/index.js';
import { DISTRIBUTION_REFUSALS } from './distribution.decider.js';
import { TicketDistributionCommandMessage } from './ticket-distribution.command.js';
import { clock } from '../../shared/clock.js';

/** A link a request paid for: its ticket and its distribution id. */
export interface PaidLink {
  ticketId: string;
  distributionId: string;
}

/** Why the links a settle gives up were not made (the audit log's FAILED entry). */
export interface NotMade {
  code: string;
  reason: string;
}

export interface SettleOutcome {
  /** The links given up, their payment given back. */
  voided: PaidLink[];
  /** The balance after the give-back; null when nothing was given back. */
  balance: number | null;
  /** The last feed position written; null when nothing was. */
  position: string | null;
}

/** Ticket streams voided at once by one settle. */
const PARALLEL_STREAMS = 16;
/** How long a settle holds a row it took (another process takes it after that). */
const LEASE_MS = 60_000;
/** A settle that failed gives its row back to be tried again after 2, 4, 8 … s, at most this long. */
const RETRY_MAX_MS = 60_000;

/** A refusal as a voiding records why its link was not made. */
export const notMadeBecause = (error: DomainError): NotMade => ({ code: error.code, reason: error.message });

/** The links of a request that did not finish, paid for and (maybe) not made. */
export function unfinished(links: readonly PaidLink[]): Array<PaidLink & { why: NotMade }> {
  const why = notMadeBecause(DISTRIBUTION_REFUSALS.notMade());
  return links.map(({ ticketId, distributionId }) => ({ ticketId, distributionId, why }));
}

interface SettlementRow {
  id: string;
  user_id: string;
  command_id: string;
  links: PaidLink[];
}

/**
 * The money of a distribution request, and the distribute flow's compensation: every link it paid for is made, or
 * given up and paid back — never both, and never paid back twice.
 *
 * Giving a link up is a command on its ticket's stream (`Void`): it is decided on the stream's revision, as making the
 * link is, so of a late append of the link (a slow or retried request) and its voiding exactly one happens. Only what
 * was voided is paid back, and the credit stream pays each link back once whoever asks (the request at once, the
 * settle job later, both). A retry of the request finds its voided links and makes them again as new ones, paying for
 * them again: it never gets a link whose payment came back.
 *
 * A request writes what it is about to pay for (`open`) before it pays, and deletes it (`close`) once settled; what a
 * dead process left is settled by `settleDue`, run by the settle-distributions job.
 */
@Injectable()
export class DistributionSettlements {
  private readonly logger = new Logger('Distribution');

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(DATABASE) private readonly database: Database,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly commandBus: CommandBus,
  ) {}

  /** The settlement of a request's payment for these links (a retry paying for other links has another). */
  static idOf(commandId: string, links: readonly PaidLink[]): string {
    const ids = links.map((l) => l.distributionId).sort();
    return createHash('sha256')
      .update(JSON.stringify([commandId, ids]))
      .digest('hex')
      .slice(0, 40);
  }

  /**
   * Before paying: what the request pays for, settled after DISTRIBUTION_SETTLE_AFTER_MS unless it closes it (by the
   * database's clock, the one `settleDue` reads).
   */
  async open(id: string, userId: string, commandId: string, links: readonly PaidLink[]): Promise<void> {
    await this.database.query(
      `insert into distribution_settlements (id, user_id, command_id, links, due_at, created_at)
       values ($1, $2, $3, $4::jsonb, now() + ($5 || ' milliseconds')::interval, now())
       on conflict (id) do nothing`,
      [id, userId, commandId, JSON.stringify(links), String(this.config.DISTRIBUTION_SETTLE_AFTER_MS)],
    );
  }

  /** Every link of the settlement is made or paid back: nothing is left to settle. */
  async close(id: string): Promise<void> {
    await this.database.query('delete from distribution_settlements where id = $1', [id]);
  }

  /**
   * Every link of `links` is made, or voided on its ticket's stream and its payment given back. Idempotent, and safe
   * beside a retry or a slow copy of the request (the ticket's stream decides between the link and its voiding).
   */
  async settle(
    userId: string,
    commandId: string,
    links: ReadonlyArray<PaidLink & { why: NotMade }>,
    meta: Omit<CommandMeta, 'commandId'>,
    now = clock.now(),
  ): Promise<SettleOutcome> {
    const at = now.toISOString();
    const limit = pLimit(PARALLEL_STREAMS);
    const outcomes = await Promise.all(
      links.map(({ ticketId, distributionId, why }) =>
        limit(async () => {
          const result = await this.commandBus.execute(
            new TicketDistributionCommandMessage(
              {
                type: 'Void',
                data: {
                  ticketId,
                  distributionId,
                  userId,
                  reference: commandId,
                  code: why.code,
                  reason: why.reason,
                  now: at,
                },
              },
              { ...meta, commandId: `void:${distributionId}` },
            ),
          );
          const voided = result.events.length > 0 || result.state.voided.has(distributionId);
          return { link: { ticketId, distributionId }, voided, position: result.position };
        }),
      ),
    );
    let position = latestPosition(
      this.store,
      outcomes.map((o) => o.position),
    );
    const voided = outcomes.filter((o) => o.voided).map((o) => o.link);
    if (voided.length === 0) return { voided, balance: null, position };
    const refund = await this.commandBus.execute(
      new CreditsCommandMessage(
        {
          type: 'RefundCredits',
          data: { userId, reference: commandId, distributionIds: voided.map((v) => v.distributionId), now: at },
        },
        { actorId: userId, commandId: `refund:${DistributionSettlements.idOf(commandId, voided)}` },
      ),
    );
    position = latestPosition(this.store, [position, refund.position]);
    return { voided, balance: balanceAfter(refund), position };
  }

  /**
   * Settles the rows that are due (requests that did not settle themselves); answers how many it took. Each row is
   * held under a lease while it is settled, so processes running this at once never take the same row; a row whose
   * settle fails is given back, due again 2 s later (then 4, 8 … up to a minute: `attempts` counts the tries).
   */
  async settleDue(max = 50, now = clock.now()): Promise<number> {
    const rows = await this.database.query<SettlementRow>(
      `update distribution_settlements
          set due_at = now() + ($2 || ' milliseconds')::interval, attempts = attempts + 1
        where id in (select id from distribution_settlements where due_at <= now()
                      order by due_at limit $1 for update skip locked)
        returning id, user_id, command_id, links`,
      [max, String(LEASE_MS)],
    );
    for (const row of rows) {
      try {
        const { voided } = await this.settle(
          row.user_id,
          row.command_id,
          unfinished(row.links),
          { actorId: row.user_id },
          now,
        );
        await this.close(row.id);
        if (voided.length > 0) {
          this.logger.warn(
            `request ${row.command_id}: ${voided.length} link(s) not made, given up (what was paid for them came back)`,
          );
        }
      } catch (err) {
        const message = safeErrorMessage(err).slice(0, 1000);
        this.logger.warn(`settling request ${row.command_id} failed, tried again later: ${message}`);
        // Not held for the rest of its lease: a failure that passes (a lock held by a dead process's statement, a
        // moment without the database) is tried again within seconds; one that lasts, less and less often.
        await this.database
          .query(
            `update distribution_settlements
                set last_error = $2,
                    due_at = now() + least($3::double precision, 1000 * power(2, least(attempts, 16))) * interval '1 ms'
              where id = $1`,
            [row.id, message, RETRY_MAX_MS],
          )
          .catch(() => undefined);
      }
    }
    return rows.length;
  }
}
