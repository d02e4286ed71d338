import { randomUUID } from 'node:crypto';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CreditChanges } from './credit-changes.service.js';
import { SetCreditsCommand } from './set-credits.command.js';

/** An admin sets a user's credits: a CreditsSet event on the user's credit stream, with who and from where. */
@CommandHandler(SetCreditsCommand)
export class SetCreditsHandler implements ICommandHandler<SetCreditsCommand> {
  constructor(private readonly credits: CreditChanges) {}

  async execute({ input, now }: SetCreditsCommand) {
    const result = await this.credits.run(
      input.userId,
      {
        type: 'SetCredits',
        data: { userId: input.userId, credits: input.credits, setBy: input.actorId, now: now.toISOString() },
      },
      { actorId: input.actorId, ip: input.ip, commandId: input.commandId ?? randomUUID() },
    );
    return { position: result.position, events: result.events };
  }
}
