import { randomUUID } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { v5 as uuidv5 } from 'uuid';
import { EVENT_STORE, type EventStore } from '../../infra/event-store/event-store.port.js';
import { handleCommand, type HandleOptions } from '../../shared/event-sourcing/aggregate-handler.js';
import { walletAccountDecider, walletLinkDecider } from './wallet-account.decider.js';
import { walletAccountStream, walletLinkStream } from './wallet-account.events.js';
import { WalletGateway } from './wallet-gateway.service.js';
import { type AccountCommandResult, LinkWalletAccountCommand } from './link-account.command.js';

const ACCOUNT_ID_NAMESPACE = '8c2f4a61-7d3e-4b9a-b5f0-1e6c9d2a7b34';

/**
 * Signs in to the wallet (a wrong password or an outage is refused before anything is written), keeps the token,
 * claims the link (one user, one external account), then records the account. A step that fails gives the claim
 * back; a kept token without an account is never used.
 */
@CommandHandler(LinkWalletAccountCommand)
export class LinkWalletAccountHandler implements ICommandHandler<LinkWalletAccountCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly wallet: WalletGateway,
  ) {}

  async execute({ input, now }: LinkWalletAccountCommand): Promise<AccountCommandResult> {
    const email = input.email.trim().toLowerCase();
    const session = await this.wallet.signIn(email, input.password);
    const accountId = input.commandId
      ? uuidv5(`${input.userId}:${input.commandId}`, ACCOUNT_ID_NAMESPACE)
      : randomUUID();
    const attempt = randomUUID();
    const options = (step: string, once = false): HandleOptions => ({
      metadata: { actorId: input.userId, ip: input.ip },
      commandId: once ? `${step}:${accountId}` : `${step}:${accountId}:${attempt}`,
    });
    await this.wallet.keepToken(accountId, session);
    const link = { userId: input.userId, email, accountId };
    await handleCommand(
      this.store,
      walletLinkDecider,
      walletLinkStream(input.userId, email),
      { type: 'ClaimLink', data: link },
      options('claim-link'),
    );
    try {
      const result = await handleCommand(
        this.store,
        walletAccountDecider,
        walletAccountStream(accountId),
        {
          type: 'LinkAccount',
          data: {
            accountId,
            userId: input.userId,
            email,
            providerAccountId: session.account.id,
            firstName: session.account.firstName,
            lastName: session.account.lastName,
            displayName: session.account.displayName,
            now: now.toISOString(),
          },
        },
        options('link', true),
      );
      return { accountId, events: result.events, position: result.position };
    } catch (err) {
      await handleCommand(
        this.store,
        walletLinkDecider,
        walletLinkStream(input.userId, email),
        { type: 'ReleaseLink', data: link },
        options('release-link'),
      ).catch(() => undefined);
      throw err;
    }
  }
}
