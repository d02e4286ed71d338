import { randomUUID } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EVENT_STORE, type EventStore } from '../../infra/event-store/event-store.port.js';
import { handleCommand } from '../../shared/event-sourcing/aggregate-handler.js';
import { fold } from '../../shared/event-sourcing/decider.js';
import type { AccountCommandResult } from './link-account.command.js';
import { walletAccountDecider } from './wallet-account.decider.js';
import { type WalletAccountEvent, walletAccountStream } from './wallet-account.events.js';
import { WalletGateway } from './wallet-gateway.service.js';
import { ReauthenticateWalletAccountCommand } from './reauthenticate-account.command.js';

@CommandHandler(ReauthenticateWalletAccountCommand)
export class ReauthenticateWalletAccountHandler implements ICommandHandler<ReauthenticateWalletAccountCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly wallet: WalletGateway,
  ) {}

  async execute({ input, now }: ReauthenticateWalletAccountCommand): Promise<AccountCommandResult> {
    const email = input.email.trim().toLowerCase();
    // The account must be the caller's, live, and this e-mail's before the wallet is asked anything.
    const { events } = await this.store.readStream(walletAccountStream(input.accountId));
    const state = fold(
      walletAccountDecider,
      events.map((e) => ({ type: e.type, data: e.data }) as WalletAccountEvent),
    );
    const command = {
      type: 'Reauthenticate' as const,
      data: { accountId: input.accountId, userId: input.userId, email, now: now.toISOString() },
    };
    walletAccountDecider.decide(command, state);
    await this.wallet.keepToken(input.accountId, await this.wallet.signIn(email, input.password));
    const result = await handleCommand(
      this.store,
      walletAccountDecider,
      walletAccountStream(input.accountId),
      command,
      {
        metadata: { actorId: input.userId, ip: input.ip },
        commandId: input.commandId ?? randomUUID(),
      },
    );
    return { accountId: input.accountId, events: result.events, position: result.position };
  }
}
