import { Command } from '@nestjs/cqrs';
import type { CreditsCommand } from './credits.decider.js';
import type { CreditsEvent } from './credits.events.js';

type PaymentCommand = Extract<CreditsCommand, { type: 'PurchaseCredits' | 'ReverseCredits' | 'RecordDispute' }>;
/** One of the payment commands of the credit stream, without its time (the command's `now`). */
export type PaymentChange = PaymentCommand extends infer C
  ? C extends { type: infer T; data: infer D }
    ? { type: T; data: Omit<D, 'now'> }
    : never
  : never;

/**
 * What a card payment does to the payer's credits: bought (once per PaymentIntent), taken back for money that went
 * back (a refund, a lost dispute), or a dispute recorded. `commandId` is derived from the payment provider's own ids,
 * so the same report, from the answer to the payer or from any number of webhooks, changes the credits once.
 */
export class ApplyPaymentCommand extends Command<{ position: string | null; events: CreditsEvent[]; balance: number }> {
  constructor(
    readonly input: {
      change: PaymentChange;
      /** Who caused it: the payer (a top-up) or the payment provider (a webhook). */
      actorId: string;
      ip?: string;
      commandId: string;
    },
    readonly now: Date = new Date(),
  ) {
    super();
  }
}
