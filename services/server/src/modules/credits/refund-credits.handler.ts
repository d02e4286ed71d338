import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CreditChanges } from './credit-changes.service.js';
import { RefundCreditsCommand } from './refund-credits.command.js';

@CommandHandler(RefundCreditsCommand)
export class RefundCreditsHandler implements ICommandHandler<RefundCreditsCommand> {
  constructor(private readonly credits: CreditChanges) {}

  async execute({ input, now }: RefundCreditsCommand) {
    const { userId, reference, distributionIds } = input;
    const result = await this.credits.run(
      userId,
      { type: 'RefundCredits', data: { userId, reference, distributionIds, now: now.toISOString() } },
      { actorId: userId, commandId: input.commandId },
    );
    const last = result.events.at(-1);
    const balance = last && 'balanceAfter' in last.data ? last.data.balanceAfter : result.state.balance;
    return { position: result.position, events: result.events, balance };
  }
}
