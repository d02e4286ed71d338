import { Command } from '@nestjs/cqrs';
import type { CreditsEvent } from './credits.events.js';

/**
 * Gives back what each link of `distributionIds` was paid, once (links not paid for, or given back already, get
 * nothing). The caller makes sure the links can no longer be made (they are voided on their tickets' streams).
 */
export class RefundCreditsCommand extends Command<{
  position: string | null;
  events: CreditsEvent[];
  balance: number;
}> {
  constructor(
    readonly input: {
      userId: string;
      reference: string;
      distributionIds: readonly string[];
      commandId: string;
    },
    readonly now: Date = new Date(),
  ) {
    super();
  }
}
