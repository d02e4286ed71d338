import { randomUUID } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EVENT_STORE, type EventStore } from '../../infra/event-store/event-store.port.js';
import { handleCommand } from '../../shared/event-sourcing/aggregate-handler.js';
import { creditsDecider } from './credits.decider.js';
import { creditStream } from './credits.events.js';

export class SetCreditsCommand extends Command<{ position: string | null }> {
  constructor(
    readonly input: { userId: string; credits: number; actorId: string; ip?: string; commandId?: string },
    readonly now: Date = new Date(),
  ) {
    super();
  }
}

/** An admin sets a user's credits: a CreditsSet event on the user's credit stream, with who and from where. */
@CommandHandler(SetCreditsCommand)
export class SetCreditsHandler implements ICommandHandler<SetCreditsCommand> {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  async execute({ input, now }: SetCreditsCommand) {
    const result = await handleCommand(
      this.store,
      creditsDecider,
      creditStream(input.userId),
      {
        type: 'SetCredits',
        data: { userId: input.userId, credits: input.credits, setBy: input.actorId, now: now.toISOString() },
      },
      { metadata: { actorId: input.actorId, ip: input.ip }, commandId: input.commandId ?? randomUUID() },
    );
    return { position: result.position };
  }
}
