import { randomUUID } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EVENT_STORE, type EventStore } from '../../infra/event-store/event-store.port.js';
import { handleCommand } from '../../shared/event-sourcing/aggregate-handler.js';
import { inviteDecider } from './invite.decider.js';
import { inviteStream } from './invite.events.js';
import { InviteCommandMessage } from './invite.command.js';

@CommandHandler(InviteCommandMessage)
export class InviteCommandHandler implements ICommandHandler<InviteCommandMessage> {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  async execute({ command, meta }: InviteCommandMessage) {
    const result = await handleCommand(this.store, inviteDecider, inviteStream(command.data.code), command, {
      metadata: { actorId: meta.actorId, ip: meta.ip },
      commandId: meta.commandId ?? randomUUID(),
    });
    return { position: result.position, events: result.events };
  }
}
