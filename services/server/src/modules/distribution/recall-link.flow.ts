import { Inject } from '@nestjs/common';
import { Command, CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DATABASE } from '../../infra/db/database.module.js';
import type { Database } from '../../infra/db/database.js';
import { EVENT_STORE, type EventStore } from '../../infra/event-store/event-store.port.js';
import { DomainError } from '../../shared/event-sourcing/decider.js';
import { DISTRIBUTION_REFUSALS } from './distribution.decider.js';
import { refusalStream } from './distribution.events.js';
import { recordRefusals } from './distribution-refusals.js';
import { recallLinkCounters, ticketOfLink } from './link-counters.js';
import { TicketDistributionCommandMessage } from './ticket-distribution.command.js';
import { clock } from '../../shared/clock.js';

/** Recalls one of a user's links (POST /v1/distributions/{id}/recall, docs/reference.md "API calls"). */
export class RecallLinkCommand extends Command<{ ticketId: string; position: string | null }> {
  constructor(
    readonly input: { userId: string; distributionId: string; ip?: string; bulk?: boolean; commandId: string },
    readonly now: Date = clock.now(),
  ) {
    super();
  }
}

/**
 * A recall: the link's ticket stream decides it (only the owner's live link), then the link's counter is marked
 * recalled at once, so a claim a moment later is refused whether or not the subscriptions run (should this process die
 * between, the link-counters reaction marks it). A refusal goes to the request's refusal log (the audit log's FAILED
 * entry) before it is answered. Nothing to undo: a recall takes nothing another step gives back.
 */
@CommandHandler(RecallLinkCommand)
export class RecallLinkFlow implements ICommandHandler<RecallLinkCommand> {
  constructor(
    private readonly commandBus: CommandBus,
    @Inject(DATABASE) private readonly database: Database,
    @Inject(EVENT_STORE) private readonly store: EventStore,
  ) {}

  async execute({ input, now }: RecallLinkCommand): Promise<{ ticketId: string; position: string | null }> {
    const { userId, distributionId, commandId } = input;
    const at = now.toISOString();
    const meta = { actorId: userId, ip: input.ip, ...(input.bulk ? { bulk: true } : {}), commandId };
    const ticketId = await ticketOfLink(this.database.db, distributionId);
    try {
      if (!ticketId) throw DISTRIBUTION_REFUSALS.noDistribution();
      const { position } = await this.commandBus.execute(
        new TicketDistributionCommandMessage(
          { type: 'Recall', data: { ticketId, distributionId, userId, now: at } },
          meta,
        ),
      );
      await recallLinkCounters(this.database.db, [{ distributionId, at }]);
      return { ticketId, position };
    } catch (err) {
      if (err instanceof DomainError) {
        const refused = {
          type: 'RecallRefused' as const,
          data: { ticketId, distributionId, userId, code: err.code, reason: err.message, at },
        };
        await recordRefusals(this.store, refusalStream(userId, commandId), commandId, [refused], meta);
      }
      throw err;
    }
  }
}
