import { randomUUID } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EVENT_STORE, type EventStore } from '../../infra/event-store/event-store.port.js';
import { handleCommand } from '../../shared/event-sourcing/aggregate-handler.js';
import { type UserCommand, userDecider } from './user.decider.js';
import { type UserEvent, userStream } from './user.events.js';

/** Any command on one user's stream (login, verification, password change, ban), with who asked and from where. */
export class UserCommandMessage extends Command<{ position: string | null; events: UserEvent[] }> {
  constructor(
    readonly command: Exclude<UserCommand, { type: 'RegisterUser' }>,
    readonly meta: { actorId: string; ip?: string },
  ) {
    super();
  }
}

@CommandHandler(UserCommandMessage)
export class UserCommandHandler implements ICommandHandler<UserCommandMessage> {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  async execute({ command, meta }: UserCommandMessage) {
    const result = await handleCommand(this.store, userDecider, userStream(command.data.userId), command, {
      metadata: { actorId: meta.actorId, ip: meta.ip },
      commandId: randomUUID(),
    });
    return { position: result.position, events: result.events };
  }
}
