import { Command } from '@nestjs/cqrs';
import type { WalletAccountEvent } from './wallet-account.events.js';
import { clock } from '../../shared/clock.js';

export interface AccountCommandResult {
  accountId: string;
  events: WalletAccountEvent[];
  position: string | null;
}

/**
 * Links an external wallet account: signs in with its e-mail and password, keeps the token, never the password. The
 * link flow's entry command (link-account.flow.ts).
 */
export class LinkWalletAccountCommand extends Command<AccountCommandResult> {
  constructor(
    readonly input: { userId: string; email: string; password: string; commandId?: string; ip?: string },
    readonly now: Date = clock.now(),
  ) {
    super();
  }
}
