import { Inject, Logger } from '@nestjs/common';
import { CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DEFAULT_DISTRIBUTION_COST, type DistributionErrorCode } from '@seatlink/contracts';
import pLimit from 'p-limit';
import { DATABASE } from '../../infra/db/database.module.js';
import type { Database } from '../../infra/db/database.js';
import { safeErrorMessage } from '../../infra/db/db-errors.js';
import { EVENT_STORE, type EventStore, latestPosition } from '../../infra/event-store/event-store.port.js';
import { findUserById, PasswordHasher } from '../identity/index.js';
import { ticketsForDistribution } from '../wallet-accounts/index.js';
import { decideTickets, type Made, type Refused } from './decide-ticket.js';
import { DistributeTicketsCommand, type DistributeOutcome } from './distribute-tickets.command.js';
import { DISTRIBUTION_REFUSALS } from './distribution.decider.js';
import { type DistributionRefused, refusalStream } from './distribution.events.js';
import { recordRefusals } from './distribution-refusals.js';
import { openLinkCounters } from './link-counters.js';
import { DistributionSettlements } from './distribution-settlements.service.js';
import { LinkPayments, type Round } from './link-payments.js';
import { checkLinkExpiry } from './link-expiry.js';

/**
 * Appends one request runs at once: each writes up to a hundred links, or, when one of those cannot go in, a link at a
 * time (see LinkPayments).
 */
const APPENDS_AT_ONCE = 16;

/** How many times one request pays for links whose append another append beat (its own settle, racing a retry). */
const MAX_ROUNDS = 3;

/**
 * Distribution as a flow over three kinds of stream:
 * 1. each ticket's distribution stream decides whether it can get a link (owned, not a duplicate, none live:
 *    `decideTickets`, every stream read in one round trip);
 * 2. the user's credit stream decides whether the links can be paid for, all at once (the balance never goes below
 *    zero, whatever runs in parallel), and pays for each link once;
 * 3. each link is appended to its ticket's stream with the revision it was decided on; a ticket that got a link in
 *    the meantime from another request is refused, and what it was paid is given back (2 and 3: `LinkPayments`).
 * What is paid for is written down before the payment (DistributionSettlements): the links not made are voided on
 * their tickets' streams and paid back, by the request at once or, when it dies, by the settle job later (its
 * compensation) — and a voided link can never be made, so no link is ever both made and paid back. Refusals are
 * recorded too (the audit log's FAILED entries). The same request again (its Idempotency-Key) answers the same links
 * and pays nothing twice; links of it that were voided and paid back are made anew, and paid for anew.
 */
@CommandHandler(DistributeTicketsCommand)
export class DistributeTicketsFlow implements ICommandHandler<DistributeTicketsCommand> {
  private readonly logger = new Logger('Distribution');
  private readonly payments: LinkPayments;

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(DATABASE) private readonly database: Database,
    settlements: DistributionSettlements,
    commandBus: CommandBus,
    private readonly hasher: PasswordHasher,
  ) {
    this.payments = new LinkPayments(store, settlements, commandBus, this.logger);
  }

  async execute({ input, now }: DistributeTicketsCommand): Promise<DistributeOutcome> {
    checkLinkExpiry(input.expiresAt, now);
    const { userId, commandId } = input;
    const at = now.toISOString();
    const bulk = input.ticketIds.length > 1;
    const metadata = { actorId: userId, ip: input.ip, ...(bulk ? { bulk: true } : {}), commandId };
    const [user, owned] = await Promise.all([
      findUserById(this.database.db, userId),
      ticketsForDistribution(this.database.db, userId, input.ticketIds),
    ]);
    const cost = user?.distribution_cost ?? DEFAULT_DISTRIBUTION_COST;
    const limit = pLimit(APPENDS_AT_ONCE);
    const asked = {
      userId,
      commandId,
      expiresAt: input.expiresAt,
      maxClicks: input.maxClicks,
      label: input.label,
      // Hashed once for the request: the decider decides on the hash, never sees the PIN.
      pinHash: input.pin === null ? null : await this.hasher.hash(input.pin),
      recipients: input.recipients ?? new Map(),
      cost,
      at,
    };
    const decideAll = (ticketIds: readonly string[]) =>
      decideTickets(
        this.store,
        ticketIds.map((ticketId) => ({ ticketId, ticket: owned.get(ticketId) ?? null })),
        asked,
      );
    const request: Round = { userId, commandId, cost, bulk, ip: input.ip, metadata, now, limit };

    const made: Made[] = [];
    const refused: Refused[] = [];
    let balance: number | null = null;
    let position: string | null = null;
    let pending = await decideAll(input.ticketIds);
    for (let round = 1; ; round++) {
      made.push(...pending.filter((d): d is Made => d.kind === 'made-before'));
      refused.push(...pending.filter((d): d is Refused => d.kind === 'refused'));
      const fresh = pending.filter((d) => d.kind === 'new');
      if (fresh.length === 0) break;
      const outcome = await this.payments.payAndMake(fresh, request);
      made.push(...outcome.made);
      refused.push(...outcome.refused);
      balance = outcome.balance ?? balance;
      position = latestPosition(this.store, [position, outcome.position]);
      if (outcome.conflicts.length === 0) break;
      if (round >= MAX_ROUNDS) {
        // Beaten again and again: voided and paid back, which is what the answer says.
        refused.push(...outcome.conflicts.map((c) => ({ ...c, error: DISTRIBUTION_REFUSALS.notMade() })));
        break;
      }
      // Decided again: taken by another request meanwhile (refused), or given up by the settle of this very request
      // (a retry racing it): then made anew, and paid for anew. Their voiding is their audit entry.
      pending = (await decideAll(outcome.conflicts.map((c) => c.ticketId))).map((d) =>
        d.kind === 'refused' ? { ...d, voided: true } : d,
      );
    }

    await this.openLinks(made);
    const recorded = refused.filter((r) => !r.voided);
    if (recorded.length > 0) {
      const refusals = recorded.map((r): DistributionRefused => ({
        type: 'DistributionRefused',
        data: {
          ticketId: r.ticketId,
          distributionId: r.distributionId,
          userId,
          code: r.error.code,
          reason: r.error.message,
          at,
        },
      }));
      const stream = refusalStream(userId, commandId);
      position = (await recordRefusals(this.store, stream, commandId, refusals, metadata)) ?? position;
    }
    return {
      distributed: made.map((d) => ({
        ticketId: d.ticketId,
        distributionId: d.event.data.distributionId,
        code: d.event.data.code,
      })),
      refused: refused.map((r) => ({
        ticketId: r.ticketId,
        code: r.error.code as DistributionErrorCode,
        message: r.error.message,
      })),
      balance: balance ?? (await this.balanceOf(userId)),
      position,
    };
  }

  /**
   * The links work at once, whether or not the subscriptions run right now (a worker may be down): their counters,
   * which claims decide on, are written here, right after the appends.
   */
  private async openLinks(made: readonly Made[]) {
    await openLinkCounters(
      this.database.db,
      made.map(({ event }) => event.data),
    )
      // The link-counters reaction writes them anyway; only the head start is lost.
      .catch((err: unknown) => this.logger.warn(`link counters left to their reaction: ${safeErrorMessage(err)}`));
  }

  private async balanceOf(userId: string): Promise<number> {
    return (await findUserById(this.database.db, userId))?.balance ?? 0;
  }
}
