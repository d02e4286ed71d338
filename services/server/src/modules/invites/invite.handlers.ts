import { randomInt, randomUUID } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EVENT_STORE, type EventStore } from '../../infra/event-store/event-store.port.js';
import { handleCommand } from '../../shared/event-sourcing/aggregate-handler.js';
import { type InviteCommand, inviteDecider } from './invite.decider.js';
import { inviteStream } from './invite.events.js';

const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** 10 characters from an alphabet without look-alikes (no 0/O, 1/I/L): about 50 bits. */
export function generateInviteCode(): string {
  return Array.from({ length: 10 }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join('');
}

/** Any command on one invite code's stream, with who asked and from where. */
export class InviteCommandMessage extends Command<{ position: string | null }> {
  constructor(
    readonly command: InviteCommand,
    readonly meta: { actorId: string; ip?: string; commandId?: string },
  ) {
    super();
  }
}

@CommandHandler(InviteCommandMessage)
export class InviteCommandHandler implements ICommandHandler<InviteCommandMessage> {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  async execute({ command, meta }: InviteCommandMessage) {
    const result = await handleCommand(this.store, inviteDecider, inviteStream(command.data.code), command, {
      metadata: { actorId: meta.actorId, ip: meta.ip },
      commandId: meta.commandId ?? randomUUID(),
    });
    return { position: result.position };
  }
}
