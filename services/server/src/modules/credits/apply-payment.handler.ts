import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { ApplyPaymentCommand } from './apply-payment.command.js';
import { CreditChanges } from './credit-changes.service.js';
import type { CreditsCommand } from './credits.decider.js';

@CommandHandler(ApplyPaymentCommand)
export class ApplyPaymentHandler implements ICommandHandler<ApplyPaymentCommand> {
  constructor(private readonly credits: CreditChanges) {}

  async execute({ input, now }: ApplyPaymentCommand) {
    const { change } = input;
    const command = { type: change.type, data: { ...change.data, now: now.toISOString() } } as CreditsCommand;
    const result = await this.credits.run(change.data.userId, command, {
      actorId: input.actorId,
      ip: input.ip,
      commandId: input.commandId,
    });
    const last = result.events.at(-1);
    const balance = last && 'balanceAfter' in last.data ? last.data.balanceAfter : result.state.balance;
    return { position: result.position, events: result.events, balance };
  }
}
