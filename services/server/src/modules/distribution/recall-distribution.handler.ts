import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DATABASE } from '../../infra/db/database.module.js';
import type { Database } from '../../infra/db/database.js';
import { EVENT_STORE, type EventStore, WrongExpectedRevisionError } from '../../infra/event-store/event-store.port.js';
import { commandEventId, handleCommand } from '../../shared/event-sourcing/aggregate-handler.js';
import { DomainError } from '../../shared/event-sourcing/decider.js';
import { DISTRIBUTION_REFUSALS, ticketDistributionDecider } from './distribution.decider.js';
import { refusalStream, type RecallRefused, ticketDistributionStream } from './distribution.events.js';
import { recallLinkCounters, ticketOfLink } from './link-counters.js';
import { RecallDistributionCommand } from './recall-distribution.command.js';

/**
 * Recalls a link on its ticket's stream (only the owner's live link), and stops it at once: the link's counter is
 * marked recalled in the same breath, so a claim a moment later is refused whether or not the subscriptions run (the
 * link-counters reaction marks it too, should this process die between). A refusal is recorded for the audit log, then
 * answered.
 */
@CommandHandler(RecallDistributionCommand)
export class RecallDistributionHandler implements ICommandHandler<RecallDistributionCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(DATABASE) private readonly database: Database,
  ) {}

  async execute({ input, now }: RecallDistributionCommand) {
    const { userId, distributionId, commandId } = input;
    const at = now.toISOString();
    const metadata = { actorId: userId, ip: input.ip, commandId };
    const ticketId = await ticketOfLink(this.database.db, distributionId);
    try {
      if (!ticketId) throw DISTRIBUTION_REFUSALS.noDistribution();
      const result = await handleCommand(
        this.store,
        ticketDistributionDecider,
        ticketDistributionStream(ticketId),
        { type: 'Recall', data: { ticketId, distributionId, userId, now: at } },
        { metadata, commandId },
      );
      await recallLinkCounters(this.database.db, [{ distributionId, at }]);
      return { ticketId, distributionId, position: result.position };
    } catch (err) {
      if (err instanceof DomainError) await this.recordRefusal(input, ticketId, err, metadata, at);
      throw err;
    }
  }

  private async recordRefusal(
    input: RecallDistributionCommand['input'],
    ticketId: string | null,
    error: DomainError,
    metadata: Record<string, unknown>,
    at: string,
  ) {
    const stream = refusalStream(input.userId, input.commandId);
    const data: RecallRefused['data'] = {
      ticketId,
      distributionId: input.distributionId,
      userId: input.userId,
      code: error.code,
      reason: error.message,
      at,
    };
    await this.store
      .appendToStream(
        stream,
        [{ id: commandEventId(input.commandId, stream, 0), type: 'RecallRefused', data, metadata }],
        {
          expectedRevision: 'no_stream',
        },
      )
      .catch((err: unknown) => {
        // A retry of the same request: its refusal was recorded the first time.
        if (!(err instanceof WrongExpectedRevisionError)) throw err;
      });
  }
}
