import { Command } from '@nestjs/cqrs';
import type { AccountCommandResult } from './link-account.command.js';

/** Re-authenticates an account in error: a new sign-in with its e-mail and password; the next sync runs at once. */
export class ReauthenticateWalletAccountCommand extends Command<AccountCommandResult> {
  constructor(
    readonly input: {
      userId: string;
      accountId: string;
      email: string;
      password: string;
      commandId?: string;
      ip?: string;
    },
    readonly now: Date = new Date(),
  ) {
    super();
  }
}
