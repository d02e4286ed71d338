import { Command } from '@nestjs/cqrs';
import type { CreditsEvent } from './credits.events.js';

/**
 * Spends `cost` credits for each link of `distributionIds` not paid for yet (a retry of the request pays nothing twice);
 * refused with 402 when the balance does not cover them.
 */
export class DebitCreditsCommand extends Command<{ position: string | null; events: CreditsEvent[]; balance: number }> {
  constructor(
    readonly input: {
      userId: string;
      /** Credits per link. */
      cost: number;
      /** The command that spends them, and what it buys. */
      reference: string;
      distributionIds: readonly string[];
      ip?: string;
      bulk?: boolean;
      commandId: string;
    },
    readonly now: Date = new Date(),
  ) {
    super();
  }
}
