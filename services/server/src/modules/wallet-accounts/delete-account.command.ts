import { Command } from '@nestjs/cqrs';
import type { AccountCommandResult } from './link-account.command.js';

/** Deletes an account of the caller's: its tickets go with it. */
export class DeleteWalletAccountCommand extends Command<AccountCommandResult> {
  constructor(
    readonly input: { userId: string; accountId: string; commandId?: string; ip?: string },
    readonly now: Date = new Date(),
  ) {
    super();
  }
}
