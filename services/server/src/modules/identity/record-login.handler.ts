import { randomUUID } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EVENT_STORE, type EventStore } from '../../infra/event-store/event-store.port.js';
import { handleCommand } from '../../shared/event-sourcing/aggregate-handler.js';
import { userDecider } from './user.decider.js';
import { userStream } from './user.events.js';

export class RecordLoginCommand extends Command<{ position: string | null }> {
  constructor(
    readonly userId: string,
    readonly ip: string | undefined,
    readonly now: Date = new Date(),
  ) {
    super();
  }
}

@CommandHandler(RecordLoginCommand)
export class RecordLoginHandler implements ICommandHandler<RecordLoginCommand> {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  async execute({ userId, ip, now }: RecordLoginCommand) {
    const result = await handleCommand(
      this.store,
      userDecider,
      userStream(userId),
      { type: 'RecordLogin', data: { userId, now: now.toISOString() } },
      { metadata: { actorId: userId, ip }, commandId: randomUUID() },
    );
    return { position: result.position };
  }
}
