import { Command } from '@nestjs/cqrs';
import type { CreditsEvent } from './credits.events.js';

/** Gives back credits a debit paid for what was not made. */
export class RefundCreditsCommand extends Command<{ position: string | null; events: CreditsEvent[] }> {
  constructor(
    readonly input: {
      userId: string;
      amount: number;
      reference: string;
      distributionIds: readonly string[];
      commandId: string;
    },
    readonly now: Date = new Date(),
  ) {
    super();
  }
}
