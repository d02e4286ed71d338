import { Command } from '@nestjs/cqrs';
import type { CreditsEvent } from './credits.events.js';

/** Spends credits for what a command buys (links); refused with 402 when the balance does not cover it. */
export class DebitCreditsCommand extends Command<{ position: string | null; events: CreditsEvent[]; balance: number }> {
  constructor(
    readonly input: {
      userId: string;
      amount: number;
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
