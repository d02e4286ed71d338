import { randomUUID } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EVENT_STORE, type EventStore } from '../../infra/event-store/event-store.port.js';
import { handleCommand } from '../../shared/event-sourcing/aggregate-handler.js';
import type { AccountCommandResult } from './link-account.command.js';
import { walletAccountDecider } from './wallet-account.decider.js';
import { walletAccountStream } from './wallet-account.events.js';
import { DeleteWalletAccountCommand } from './delete-account.command.js';

@CommandHandler(DeleteWalletAccountCommand)
export class DeleteWalletAccountHandler implements ICommandHandler<DeleteWalletAccountCommand> {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  async execute({ input, now }: DeleteWalletAccountCommand): Promise<AccountCommandResult> {
    const result = await handleCommand(
      this.store,
      walletAccountDecider,
      walletAccountStream(input.accountId),
      { type: 'DeleteAccount', data: { accountId: input.accountId, userId: input.userId, now: now.toISOString() } },
      { metadata: { actorId: input.userId, ip: input.ip }, commandId: input.commandId ?? randomUUID() },
    );
    return { accountId: input.accountId, events: result.events, position: result.position };
  }
}
