import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { v5 as uuidv5 } from 'uuid';
import { safeErrorMessage } from '../../infra/db/db-errors.js';
import type { CommandMeta } from '../../shared/event-sourcing/aggregate-command.js';
import { type AccountCommandResult, LinkWalletAccountCommand } from './link-account.command.js';
import { WalletAccountCommandMessage, WalletLinkCommandMessage } from './wallet-account.command.js';
import { WalletGateway } from './wallet-gateway.service.js';

const ACCOUNT_ID_NAMESPACE = '8c2f4a61-7d3e-4b9a-b5f0-1e6c9d2a7b34';

/**
 * Links a wallet account over two streams: signs in to the wallet (a wrong password or an outage is refused before
 * anything is written), keeps the token, claims the link (one user, one external account), then records the account.
 * A step that fails gives the claim back; a kept token without an account is never used. The claim is the record that
 * a link started: a process that dies before the account is recorded leaves it, and the compensation job, handed it
 * by WalletLinkClaimsWatch, gives it back.
 */
@CommandHandler(LinkWalletAccountCommand)
export class LinkWalletAccountFlow implements ICommandHandler<LinkWalletAccountCommand> {
  private readonly logger = new Logger('WalletLink');

  constructor(
    private readonly commandBus: CommandBus,
    private readonly wallet: WalletGateway,
  ) {}

  async execute({ input, now }: LinkWalletAccountCommand): Promise<AccountCommandResult> {
    const email = input.email.trim().toLowerCase();
    const session = await this.wallet.signIn(email, input.password);
    const accountId = input.commandId
      ? uuidv5(`${input.userId}:${input.commandId}`, ACCOUNT_ID_NAMESPACE)
      : randomUUID();
    const attempt = randomUUID();
    const meta = (step: string, once = false): CommandMeta => ({
      actorId: input.userId,
      ip: input.ip,
      commandId: once ? `${step}:${accountId}` : `${step}:${accountId}:${attempt}`,
    });
    await this.wallet.keepToken(accountId, session);
    const link = { userId: input.userId, email, accountId };
    await this.commandBus.execute(new WalletLinkCommandMessage({ type: 'ClaimLink', data: link }, meta('claim-link')));
    try {
      const result = await this.commandBus.execute(
        new WalletAccountCommandMessage(
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
          meta('link', true),
        ),
      );
      return { accountId, events: result.events, position: result.position };
    } catch (err) {
      await this.commandBus
        .execute(new WalletLinkCommandMessage({ type: 'ReleaseLink', data: link }, meta('release-link')))
        .catch((releaseErr: unknown) =>
          this.logger.warn(
            `could not give back the link claim of account ${accountId} at once (${safeErrorMessage(releaseErr)}); ` +
              'the compensation job gives it back',
          ),
        );
      throw err;
    }
  }
}
