import { randomBytes } from 'node:crypto';
import { Inject, Logger } from '@nestjs/common';
import { CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DEFAULT_DISTRIBUTION_COST, type DistributionErrorCode, QueueName } from '@seatlink/contracts';
import pLimit from 'p-limit';
import { v5 as uuidv5 } from 'uuid';
import { DATABASE } from '../../infra/db/database.module.js';
import type { Database } from '../../infra/db/database.js';
import { safeErrorMessage } from '../../infra/db/db-errors.js';
import {
  EVENT_STORE,
  type EventStore,
  type RecordedEvent,
  WrongExpectedRevisionError,
} from '../../infra/event-store/event-store.port.js';
import { JOB_QUEUE, type JobQueue } from '../../infra/queue/queue.port.js';
import { commandEventId } from '../../shared/event-sourcing/aggregate-handler.js';
import { DomainError, fold } from '../../shared/event-sourcing/decider.js';
import { DebitCreditsCommand } from '../credits/debit-credits.command.js';
import { InsufficientCreditsError } from '../credits/credits.decider.js';
import { RefundCreditsCommand } from '../credits/refund-credits.command.js';
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
import { links } from './distribution.schema.js';
import { SettleDistributionJob, type SettleDistributionData } from './settle-distribution.job.js';

const DISTRIBUTION_ID_NAMESPACE = '5b0f6c1e-3a2d-4e8f-9c7b-1d2e3f4a5b6c';
/** Ticket streams read and written at once by one request. */
const PARALLEL_STREAMS = 16;
/** When the settle job checks that every link paid for was made (long after any request ends). */
const SETTLE_AFTER_MS = 60_000;

/** 128 random bits: the unguessable part of a link. */
export const newLinkCode = () => randomBytes(16).toString('base64url');

type Decision =
  | { kind: 'made-before'; ticketId: string; event: TicketDistributed; position: string }
  | { kind: 'new'; ticketId: string; event: TicketDistributed; revision: number }
  | { kind: 'refused'; ticketId: string; distributionId: string; error: DomainError };

/**
 * Distribution as a small saga over three kinds of stream:
 * 1. each ticket's distribution stream decides whether it can get a link (owned, not a duplicate, none live);
 * 2. the user's credit stream decides whether the links can be paid for, all at once (the balance never goes below
 *    zero, whatever runs in parallel);
 * 3. each link is appended to its ticket's stream with the revision it was decided on; a ticket that got a link in
 *    the meantime from another request is refused, and what it was paid is given back.
 * A settle job queued before the debit gives back, later, what a crash between 2 and 3 left paid and not made.
 * Refusals are recorded too (the audit log's FAILED entries). The same request again (its Idempotency-Key) answers
 * the same links and pays nothing twice.
 */
@CommandHandler(DistributeTicketsCommand)
export class DistributeTicketsHandler implements ICommandHandler<DistributeTicketsCommand> {
  private readonly logger = new Logger('Distribution');

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(DATABASE) private readonly database: Database,
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
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

    const decisions = await Promise.all(
      input.ticketIds.map((ticketId) =>
        limit(() => this.decide(ticketId, commandId, { ...input, ticket: owned.get(ticketId) ?? null, cost, at })),
      ),
    );
    const fresh = decisions.filter((d): d is Extract<Decision, { kind: 'new' }> => d.kind === 'new');
    const refused: Array<Extract<Decision, { kind: 'refused' }>> = decisions.filter(
      (d): d is Extract<Decision, { kind: 'refused' }> => d.kind === 'refused',
    );
    let balance: number | null = null;
    let position: string | null = null;
    const made: Decision[] = decisions.filter((d) => d.kind === 'made-before');

    if (fresh.length > 0) {
      const amount = fresh.length * cost;
      const paidFor = fresh.map((d) => ({ ticketId: d.ticketId, distributionId: d.event.data.distributionId }));
      await this.queue.add(
        QueueName.Maintenance,
        SettleDistributionJob.jobName,
        { userId, commandId, cost, links: paidFor } satisfies SettleDistributionData,
        {
          jobId: `settle-${commandId}`,
          delayMs: SETTLE_AFTER_MS,
          attempts: 10,
          backoff: { type: 'exponential', delayMs: 5000 },
        },
      );
      try {
        const debit = await this.commandBus.execute(
          new DebitCreditsCommand(
            {
              userId,
              amount,
              reference: commandId,
              distributionIds: paidFor.map((p) => p.distributionId),
              ip: input.ip,
              bulk,
              commandId: `debit:${commandId}`,
            },
            now,
          ),
        );
        balance = debit.balance;
        position = debit.position;
      } catch (err) {
        if (!(err instanceof InsufficientCreditsError)) throw err;
        for (const d of fresh) {
          refused.push({
            kind: 'refused',
            ticketId: d.ticketId,
            distributionId: d.event.data.distributionId,
            error: err,
          });
        }
        balance = err.balance;
        fresh.length = 0;
      }

      const notMade: typeof paidFor = [];
      const appended = await Promise.all(
        fresh.map((d) =>
          limit(async () => {
            try {
              const result = await this.store.appendToStream(
                ticketDistributionStream(d.ticketId),
                [{ id: commandEventId(commandId, ticketDistributionStream(d.ticketId), 0), ...d.event, metadata }],
                { expectedRevision: d.revision === -1 ? 'no_stream' : d.revision },
              );
              made.push({ kind: 'made-before', ticketId: d.ticketId, event: d.event, position: result.position });
              return result.position;
            } catch (err) {
              const distributionId = d.event.data.distributionId;
              notMade.push({ ticketId: d.ticketId, distributionId });
              const error =
                err instanceof WrongExpectedRevisionError
                  ? DISTRIBUTION_REFUSALS.distributed()
                  : new DomainError('The link could not be made; nothing was charged for it', 'TICKET_NOT_FOUND', 409);
              if (!(err instanceof WrongExpectedRevisionError)) {
                this.logger.warn(`ticket ${d.ticketId}: link not made: ${safeErrorMessage(err)}`);
              }
              refused.push({ kind: 'refused', ticketId: d.ticketId, distributionId, error });
              return null;
            }
          }),
        ),
      );
      position = appended.reduce<string | null>(
        (p, q) => (q && (!p || this.store.comparePositions(q, p) > 0) ? q : p),
        position,
      );

      if (notMade.length > 0) {
        // Given back now; should this fail, the settle job gives it back (the same refund, by its id).
        await this.commandBus
          .execute(
            new RefundCreditsCommand(
              {
                userId,
                amount: notMade.length * cost,
                reference: commandId,
                distributionIds: notMade.map((n) => n.distributionId),
                commandId: `refund:${commandId}`,
              },
              now,
            ),
          )
          .then((refund) => {
            const last = refund.events.at(-1);
            if (last && 'balanceAfter' in last.data) balance = last.data.balanceAfter;
            if (refund.position) position = refund.position;
          })
          .catch((err: unknown) =>
            this.logger.warn(`refund of ${commandId} left to the settle job: ${safeErrorMessage(err)}`),
          );
      }
    }

    await this.openLinks(made);
    if (refused.length > 0)
      position = (await this.recordRefusals(userId, commandId, refused, metadata, at)) ?? position;
    return {
      distributed: made
        .filter((d): d is Extract<Decision, { kind: 'made-before' }> => d.kind === 'made-before')
        .map((d) => ({ ticketId: d.ticketId, distributionId: d.event.data.distributionId, code: d.event.data.code })),
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
   * The links work at once, whether or not the projections run right now (a worker may be down): their rows are
   * written here as the links projection would write them; it finds them there and keeps them.
   */
  private async openLinks(made: readonly Decision[]) {
    const rows = made
      .filter((d): d is Extract<Decision, { kind: 'made-before' }> => d.kind === 'made-before')
      .map(({ event: { data } }) => ({
        distributionId: data.distributionId,
        code: data.code,
        ticketId: data.ticketId,
        userId: data.userId,
        maxClicks: data.maxClicks,
        expiresAt: data.expiresAt ? new Date(data.expiresAt) : null,
        recalledAt: null,
        clicks: 0,
        lastClickAt: null,
        createdAt: new Date(data.at),
      }));
    for (let i = 0; i < rows.length; i += 500) {
      await this.database.db
        .insert(links)
        .values(rows.slice(i, i + 500))
        .onConflictDoNothing()
        // The projection writes them anyway; only the head start is lost.
        .catch((err: unknown) => this.logger.warn(`links left to the projection: ${safeErrorMessage(err)}`));
    }
  }

  /** Decides one ticket on its stream: a new link, the link this request made before, or a refusal. */
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
    const distributionId = uuidv5(`${commandId}:${ticketId}`, DISTRIBUTION_ID_NAMESPACE);
    const { revision, events } = await this.store.readStream(stream);
    const before = events.find((e) => e.id === commandEventId(commandId, stream, 0));
    if (before) {
      return { kind: 'made-before', ticketId, event: asDistributed(before), position: before.position };
    }
    const state = fold(
      ticketDistributionDecider,
      events.map((e) => ({ type: e.type, data: e.data }) as TicketDistributionEvent),
    );
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
      return { kind: 'new', ticketId, event: event as TicketDistributed, revision };
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
