import { randomUUID } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EVENT_STORE, type EventStore } from '../../infra/event-store/event-store.port.js';
import { handleCommand } from '../../shared/event-sourcing/aggregate-handler.js';
import { userDecider } from './user.decider.js';
import { userStream } from './user.events.js';
import { UserCommandMessage, type UserCommandResult } from './user.command.js';

@CommandHandler(UserCommandMessage)
export class UserCommandHandler implements ICommandHandler<UserCommandMessage> {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  async execute({ command, meta }: UserCommandMessage): Promise<UserCommandResult> {
    const result = await handleCommand(this.store, userDecider, userStream(command.data.userId), command, {
      metadata: { actorId: meta.actorId, ip: meta.ip },
      commandId: meta.commandId ?? randomUUID(),
    });
    return { position: result.position, events: result.events, state: result.state };
  }
}
