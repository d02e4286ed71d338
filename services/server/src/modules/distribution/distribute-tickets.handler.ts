import { randomBytes } from 'node:crypto';
import { Inject, Logger } from '@nestjs/common';
import { CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DEFAULT_DISTRIBUTION_COST, type DistributionErrorCode } from '@seatlink/contracts';
import pLimit from 'p-limit';
import { v5 as uuidv5 } from 'uuid';
import { DATABASE } from '../../infra/db/database.module.js';
import type { Database } from '../../infra/db/database.js';
import { safeErrorMessage } from '../../infra/db/db-errors.js';
import {
  EVENT_STORE,
  type EventMetadata,
  type EventStore,
  latestPosition,
  type RecordedEvent,
  WrongExpectedRevisionError,
} from '../../infra/event-store/event-store.port.js';
import { commandEventId } from '../../shared/event-sourcing/aggregate-handler.js';
import { DomainError, fold } from '../../shared/event-sourcing/decider.js';
import { DebitCreditsCommand } from '../credits/debit-credits.command.js';
import { InsufficientCreditsError } from '../credits/credits.decider.js';
import { findUserById } from '../identity/read-models/users/users.queries.js';
import { ticketsForDistribution } from '../wallet-accounts/read-models/accounts.queries.js';
import { DistributeTicketsCommand, type DistributeOutcome } from './distribute-tickets.command.js';
import { DISTRIBUTION_REFUSALS, ticketDistributionDecider } from './distribution.decider.js';
import {
  type DistributionRefused,
  refusalStream,
  type TicketDistributed,
  type TicketDistributionEvent,
  ticketDistributionStream,
} from './distribution.events.js';
import { openLinkCounters } from './link-counters.js';
import { DistributionSettlements, notMadeBecause, type PaidLink } from './distribution-settlements.service.js';

const DISTRIBUTION_ID_NAMESPACE = '5b0f6c1e-3a2d-4e8f-9c7b-1d2e3f4a5b6c';
/** Ticket streams read and written at once by one request. */
const PARALLEL_STREAMS = 16;

/** 128 random bits: the unguessable part of a link. */
export const newLinkCode = () => randomBytes(16).toString('base64url');

/** How many times one request pays for links whose append another append beat (its own settle, racing a retry). */
const MAX_ROUNDS = 3;

type Made = { kind: 'made-before'; ticketId: string; event: TicketDistributed };
type Fresh = { kind: 'new'; ticketId: string; event: TicketDistributed; revision: number; eventId: string };
type Refused = {
  kind: 'refused';
  ticketId: string;
  distributionId: string;
  error: DomainError;
  /** Paid for and voided: its voiding is the audit log's entry, not a refusal of its own. */
  voided?: boolean;
};
type Decision = Made | Fresh | Refused;

/** What every round of a request shares. */
interface Round {
  userId: string;
  commandId: string;
  cost: number;
  bulk: boolean;
  ip?: string;
  metadata: EventMetadata;
  now: Date;
  limit: ReturnType<typeof pLimit>;
}

interface RoundOutcome {
  made: Made[];
  refused: Refused[];
  /** Voided after another append beat theirs: decided again. */
  conflicts: Refused[];
  balance: number | null;
  position: string | null;
}

/**
 * Distribution as a small saga over three kinds of stream:
 * 1. each ticket's distribution stream decides whether it can get a link (owned, not a duplicate, none live);
 * 2. the user's credit stream decides whether the links can be paid for, all at once (the balance never goes below
 *    zero, whatever runs in parallel), and pays for each link once;
 * 3. each link is appended to its ticket's stream with the revision it was decided on; a ticket that got a link in
 *    the meantime from another request is refused, and what it was paid is given back.
 * What is paid for is written down before the payment (DistributionSettlements): the links not made are voided on
 * their tickets' streams and paid back, by the request at once or, when it dies, by the settle job later — and a
 * voided link can never be made, so no link is ever both made and paid back. Refusals are recorded too (the audit
 * log's FAILED entries). The same request again (its Idempotency-Key) answers the same links and pays nothing twice;
 * links of it that were voided and paid back are made anew, and paid for anew.
 */
@CommandHandler(DistributeTicketsCommand)
export class DistributeTicketsHandler implements ICommandHandler<DistributeTicketsCommand> {
  private readonly logger = new Logger('Distribution');

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(DATABASE) private readonly database: Database,
    private readonly settlements: DistributionSettlements,
    private readonly commandBus: CommandBus,
  ) {}

  async execute({ input, now }: DistributeTicketsCommand): Promise<DistributeOutcome> {
    const { userId, commandId } = input;
    const at = now.toISOString();
    const bulk = input.ticketIds.length > 1;
    const metadata = { actorId: userId, ip: input.ip, ...(bulk ? { bulk: true } : {}), commandId };
    const [user, owned] = await Promise.all([
      findUserById(this.database.db, userId),
      ticketsForDistribution(this.database.db, userId, input.ticketIds),
    ]);
    const cost = user?.distribution_cost ?? DEFAULT_DISTRIBUTION_COST;
    const limit = pLimit(PARALLEL_STREAMS);
    const decideAll = (ticketIds: readonly string[]) =>
      Promise.all(
        ticketIds.map((ticketId) =>
          limit(() => this.decide(ticketId, commandId, { ...input, ticket: owned.get(ticketId) ?? null, cost, at })),
        ),
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
      const fresh = pending.filter((d): d is Fresh => d.kind === 'new');
      if (fresh.length === 0) break;
      const outcome = await this.payAndMake(fresh, request);
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
    if (recorded.length > 0)
      position = (await this.recordRefusals(userId, commandId, recorded, metadata, at)) ?? position;
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
   * Pays for the new links, then appends them. What is paid for is written down first (the settle job's record, should
   * this process die); the links not made are voided and paid back at once — or, should that fail too, by the settle
   * job. Answers what was made, what was refused, and the tickets whose link another append beat (`conflicts`).
   */
  private async payAndMake(fresh: readonly Fresh[], request: Round): Promise<RoundOutcome> {
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
        new DebitCreditsCommand(
          {
            userId,
            cost: request.cost,
            reference: commandId,
            distributionIds: paidFor.map((p) => p.distributionId),
            ip: request.ip,
            bulk: request.bulk,
            commandId: `debit:${settlement}`,
          },
          now,
        ),
      );
      outcome.balance = debit.balance;
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
    const appended = await Promise.all(
      fresh.map((d) =>
        limit(async () => {
          try {
            const result = await this.store.appendToStream(
              ticketDistributionStream(d.ticketId),
              [{ id: d.eventId, ...d.event, metadata }],
              { expectedRevision: d.revision === -1 ? 'no_stream' : d.revision },
            );
            // Written before by another copy of this request (a retry running beside it): its link, with its code.
            const event = result.repeated ? await this.storedLink(d.ticketId, d.event.data.distributionId) : d.event;
            outcome.made.push({ kind: 'made-before', ticketId: d.ticketId, event });
            return result.position;
          } catch (err) {
            const conflict = err instanceof WrongExpectedRevisionError;
            if (!conflict) this.logger.warn(`ticket ${d.ticketId}: link not made: ${safeErrorMessage(err)}`);
            notMade.push({ ...d, conflict });
            return null;
          }
        }),
      ),
    );
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
        metadata,
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
        const event = await this.storedLink(n.ticketId, n.event.data.distributionId);
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

  /** The link as its ticket's stream holds it: the code that works is the one written, whichever copy wrote it. */
  private async storedLink(ticketId: string, distributionId: string): Promise<TicketDistributed> {
    const { events } = await this.store.readStream(ticketDistributionStream(ticketId));
    const written = events.find(
      (e) => e.type === 'TicketDistributed' && (e.data as TicketDistributed['data']).distributionId === distributionId,
    );
    if (!written) throw new Error(`ticket ${ticketId}: link ${distributionId} is not on its stream`);
    return asDistributed(written);
  }

  private async close(settlement: string, commandId: string) {
    await this.settlements
      .close(settlement)
      .catch((err: unknown) =>
        this.logger.warn(`settlement of ${commandId} left to the settle job: ${safeErrorMessage(err)}`),
      );
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

  /**
   * Decides one ticket on its stream: a new link, the link this request made before, or a refusal. A link of this
   * request that was voided (and paid back) is not made again under its old id: the request's next attempt for the
   * ticket has ids of its own, and is paid for anew.
   */
  private async decide(
    ticketId: string,
    commandId: string,
    input: DistributeTicketsCommand['input'] & {
      ticket: { ownerId: string; accountId: string; isDuplicate: boolean } | null;
      cost: number;
      at: string;
    },
  ): Promise<Decision> {
    const stream = ticketDistributionStream(ticketId);
    const { revision, events } = await this.store.readStream(stream);
    const state = fold(
      ticketDistributionDecider,
      events.map((e) => ({ type: e.type, data: e.data }) as TicketDistributionEvent),
    );
    const voidedBefore = [...state.voided.values()].filter((reference) => reference === commandId).length;
    const attempt = voidedBefore === 0 ? commandId : `${commandId}#${voidedBefore}`;
    const distributionId = uuidv5(`${attempt}:${ticketId}`, DISTRIBUTION_ID_NAMESPACE);
    const eventId = commandEventId(attempt, stream, 0);
    const before = events.find((e) => e.id === eventId);
    if (before) return { kind: 'made-before', ticketId, event: asDistributed(before) };
    try {
      const [event] = ticketDistributionDecider.decide(
        {
          type: 'Distribute',
          data: {
            ticketId,
            distributionId,
            userId: input.userId,
            ticket: input.ticket,
            code: newLinkCode(),
            expiresAt: input.expiresAt,
            maxClicks: input.maxClicks,
            cost: input.cost,
            now: input.at,
          },
        },
        state,
      );
      return { kind: 'new', ticketId, event: event as TicketDistributed, revision, eventId };
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      return { kind: 'refused', ticketId, distributionId, error: err };
    }
  }

  /** The refusals of the request, in one append to a stream of their own. */
  private async recordRefusals(
    userId: string,
    commandId: string,
    refused: ReadonlyArray<{ ticketId: string; distributionId: string; error: DomainError }>,
    metadata: Record<string, unknown>,
    at: string,
  ): Promise<string | null> {
    const stream = refusalStream(userId, commandId);
    const events = refused.map(
      (r, i): { id: string; type: string; data: DistributionRefused['data']; metadata: typeof metadata } => ({
        id: commandEventId(commandId, stream, i),
        type: 'DistributionRefused',
        data: {
          ticketId: r.ticketId,
          distributionId: r.distributionId,
          userId,
          code: r.error.code,
          reason: r.error.message,
          at,
        },
        metadata,
      }),
    );
    try {
      return (await this.store.appendToStream(stream, events, { expectedRevision: 'no_stream' })).position;
    } catch (err) {
      // A retry of the same request: its refusals were recorded the first time.
      if (err instanceof WrongExpectedRevisionError) return null;
      throw err;
    }
  }

  private async balanceOf(userId: string): Promise<number> {
    return (await findUserById(this.database.db, userId))?.balance ?? 0;
  }
}

function asDistributed(recorded: RecordedEvent): TicketDistributed {
  return { type: 'TicketDistributed', data: recorded.data as TicketDistributed['data'] };
}
