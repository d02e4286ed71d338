import { Command } from '@nestjs/cqrs';
import type { BillingInfo, TopupResponse } from '@seatlink/contracts';

/** Buys credits by card: one per pound, GBP (SPEC.md §3 top-up). */
export class TopUpCommand extends Command<TopupResponse> {
  constructor(
    readonly input: {
      userId: string;
      /** Whole pounds. */
      amount: number;
      paymentMethodId: string;
      email: string;
      billing: BillingInfo;
      ip?: string;
      /** From the request's Idempotency-Key: the same key, the same PaymentIntent (one charge). */
      commandId: string;
    },
  ) {
    super();
  }
}
