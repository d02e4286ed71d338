import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EVENT_STORE, type EventStore } from '../../infra/event-store/event-store.port.js';
import { handleCommand } from '../../shared/event-sourcing/aggregate-handler.js';
import { waitlistDecider } from './waitlist.decider.js';
import { waitlistStream } from './waitlist.events.js';
import { JoinWaitlistCommand } from './join-waitlist.command.js';

@CommandHandler(JoinWaitlistCommand)
export class JoinWaitlistHandler implements ICommandHandler<JoinWaitlistCommand> {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  async execute({ input, now }: JoinWaitlistCommand) {
    const { email, firstName, lastName } = input;
    const result = await handleCommand(
      this.store,
      waitlistDecider,
      waitlistStream(email),
      { type: 'JoinWaitlist', data: { email, firstName, lastName, now: now.toISOString() } },
      { metadata: { ip: input.ip }, commandId: input.commandId },
    );
    return { position: result.position, events: result.events };
  }
}
