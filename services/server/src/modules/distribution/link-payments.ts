import type { Logger } from '@nestjs/common';
import type { CommandBus } from '@nestjs/cqrs';
import type pLimit from 'p-limit';
import { safeErrorMessage } from '../../infra/db/db-errors.js';
import {
  type EventMetadata,
  type EventStore,
  latestPosition,
  WrongExpectedRevisionError,
} from '../../infra/event-store/event-store.port.js';
import { appendDecision, decisionAppend } from '../../shared/event-sourcing/aggregate-handler.js';
import type { DomainError } from '../../shared/event-sourcing/decider.js';
import { balanceAfter, CreditsCommandMessage, InsufficientCreditsError } from '../credits/index.js';
import { type Fresh, type Made, type Refused, storedLink } from './decide-ticket.js';
import { DISTRIBUTION_REFUSALS } from './distribution.decider.js';
import type { TicketDistributed } from './distribution.events.js';
import { DistributionSettlements, notMadeBecause, type PaidLink } from './distribution-settlements.service.js';

/** Links appended in one statement (to as many ticket streams). */
const LINKS_PER_APPEND = 100;

/** What every round of a request shares. */
export interface Round {
  userId: string;
  commandId: string;
  cost: number;
  bulk: boolean;
  ip?: string;
  metadata: EventMetadata;
  now: Date;
  limit: ReturnType<typeof pLimit>;
}

export interface RoundOutcome {
  made: Made[];
  refused: Refused[];
  /** Voided after another append beat theirs: decided again. */
  conflicts: Refused[];
  balance: number | null;
  position: string | null;
}

/**
 * One round of a distribution request: pays for the links decided, then appends them, with its settlement. What is
 * paid for is written down first (the settle job's record, should this process die); the links not made are voided
 * and paid back at once — or, should that fail too, by the settle job.
 */
export class LinkPayments {
  constructor(
    private readonly store: EventStore,
    private readonly settlements: DistributionSettlements,
    private readonly commandBus: CommandBus,
    private readonly logger: Logger,
  ) {}

  /** Answers what was made, what was refused, and the tickets whose link another append beat (`conflicts`). */
  async payAndMake(fresh: readonly Fresh[], request: Round): Promise<RoundOutcome> {
    const { userId, commandId, metadata, now, limit } = request;
    const paidFor: PaidLink[] = fresh.map((d) => ({
      ticketId: d.ticketId,
      distributionId: d.event.data.distributionId,
    }));
    const settlement = DistributionSettlements.idOf(commandId, paidFor);
    const outcome: RoundOutcome = { made: [], refused: [], conflicts: [], balance: null, position: null };
    // Written before the payment: should this process die past it, the settle job finds what it paid for.
    await this.settlements.open(settlement, userId, commandId, paidFor);
    try {
      const debit = await this.commandBus.execute(
        new CreditsCommandMessage(
          {
            type: 'DebitCredits',
            data: {
              userId,
              cost: request.cost,
              reference: commandId,
              distributionIds: paidFor.map((p) => p.distributionId),
              now: now.toISOString(),
            },
          },
          { actorId: userId, ip: request.ip, bulk: request.bulk, commandId: `debit:${settlement}` },
        ),
      );
      outcome.balance = balanceAfter(debit);
      outcome.position = debit.position;
    } catch (err) {
      if (!(err instanceof InsufficientCreditsError)) throw err;
      await this.settlements.close(settlement);
      outcome.refused = fresh.map((d) => ({
        kind: 'refused',
        ticketId: d.ticketId,
        distributionId: d.event.data.distributionId,
        error: err,
      }));
      outcome.balance = err.balance;
      return outcome;
    }

    const notMade: Array<Fresh & { conflict: boolean }> = [];
    const appendOne = async (d: Fresh) => {
      try {
        const result = await appendDecision(this.store, d.decision, { metadata, commandId: d.decision.commandId });
        // Written before by another copy of this request (a retry running beside it): its link, with its code.
        const event = result.repeated ? await storedLink(this.store, d.ticketId, d.event.data.distributionId) : d.event;
        outcome.made.push({ kind: 'made-before', ticketId: d.ticketId, event });
        return result.position;
      } catch (err) {
        const conflict = err instanceof WrongExpectedRevisionError;
        if (!conflict) this.logger.warn(`ticket ${d.ticketId}: link not made: ${safeErrorMessage(err)}`);
        notMade.push({ ...d, conflict });
        return null;
      }
    };
    // Many links in one statement, each at the revision its ticket was decided on (a round trip per link was most of
    // a big request's time). All or nothing: when any of them cannot go in (its ticket moved, a copy of this request
    // wrote it first, the database went away), the links of that statement are appended one by one, so each ticket
    // answers for itself as above.
    const appendSome = async (some: readonly Fresh[]) => {
      try {
        const results = await this.store.appendToStreams(
          some.map((d) => decisionAppend(d.decision, { metadata, commandId: d.decision.commandId })),
        );
        for (const d of some) outcome.made.push({ kind: 'made-before', ticketId: d.ticketId, event: d.event });
        return results.map((r) => r.position);
      } catch {
        const positions: Array<string | null> = [];
        for (const d of some) positions.push(await appendOne(d));
        return positions;
      }
    };
    const statements: Fresh[][] = [];
    for (let from = 0; from < fresh.length; from += LINKS_PER_APPEND) {
      statements.push(fresh.slice(from, from + LINKS_PER_APPEND));
    }
    const appended = (await Promise.all(statements.map((some) => limit(() => appendSome(some))))).flat();
    outcome.position = latestPosition(this.store, [outcome.position, ...appended]);
    if (notMade.length === 0) {
      await this.close(settlement, commandId);
      return outcome;
    }

    // Another append was first (another request, or this request's settle), or the append's fate is unknown (the
    // database went away): the ticket's stream decides. A link made after all stays; the others are voided and paid
    // back. Should this fail too, the settle job does it later.
    const refusal = (d: { ticketId: string; event: TicketDistributed }, error: DomainError): Refused => ({
      kind: 'refused',
      ticketId: d.ticketId,
      distributionId: d.event.data.distributionId,
      error,
      // Its voiding is the audit log's entry, not a refusal of its own.
      voided: true,
    });
    const why = (conflict: boolean) =>
      notMadeBecause(conflict ? DISTRIBUTION_REFUSALS.distributed() : DISTRIBUTION_REFUSALS.notMade());
    let settled;
    try {
      settled = await this.settlements.settle(
        userId,
        commandId,
        notMade.map((n) => ({
          ticketId: n.ticketId,
          distributionId: n.event.data.distributionId,
          why: why(n.conflict),
        })),
        { actorId: userId, ip: request.ip, bulk: request.bulk },
        now,
      );
    } catch (err) {
      this.logger.warn(`settling ${commandId} left to the settle job: ${safeErrorMessage(err)}`);
      outcome.refused.push(...notMade.map((n) => refusal(n, DISTRIBUTION_REFUSALS.notMade())));
      return outcome;
    }
    outcome.balance = settled.balance ?? outcome.balance;
    outcome.position = latestPosition(this.store, [outcome.position, settled.position]);
    const voided = new Set(settled.voided.map((v) => v.distributionId));
    for (const n of notMade) {
      if (!voided.has(n.event.data.distributionId)) {
        // Not voided: its append had gone through after all (this one's, or another copy's, with its own code).
        const event = await storedLink(this.store, n.ticketId, n.event.data.distributionId);
        outcome.made.push({ kind: 'made-before', ticketId: n.ticketId, event });
      } else if (n.conflict) {
        outcome.conflicts.push(refusal(n, DISTRIBUTION_REFUSALS.distributed()));
      } else {
        outcome.refused.push(refusal(n, DISTRIBUTION_REFUSALS.notMade()));
      }
    }
    await this.close(settlement, commandId);
    return outcome;
  }

  private async close(settlement: string, commandId: string) {
    await this.settlements
      .close(settlement)
      .catch((err: unknown) =>
        this.logger.warn(`settlement of ${commandId} left to the settle job: ${safeErrorMessage(err)}`),
      );
  }
}
