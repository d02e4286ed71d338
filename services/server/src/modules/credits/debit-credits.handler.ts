import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CreditChanges } from './credit-changes.service.js';
import { DebitCreditsCommand } from './debit-credits.command.js';

@CommandHandler(DebitCreditsCommand)
export class DebitCreditsHandler implements ICommandHandler<DebitCreditsCommand> {
  constructor(private readonly credits: CreditChanges) {}

  async execute({ input, now }: DebitCreditsCommand) {
    const { userId, cost, reference, distributionIds } = input;
    const result = await this.credits.run(
      userId,
      { type: 'DebitCredits', data: { userId, cost, reference, distributionIds, now: now.toISOString() } },
      { actorId: userId, ip: input.ip, bulk: input.bulk, commandId: input.commandId },
    );
    const last = result.events.at(-1);
    const balance = last && 'balanceAfter' in last.data ? last.data.balanceAfter : result.state.balance;
    return { position: result.position, events: result.events, balance };
  }
}
