import type { BillingInfo, PaymentIntentStatus } from '@seatlink/contracts';
import type Stripe from 'stripe';

/**
 * The card payment provider. Adapters: Stripe (when its keys are set) and the test gateway (the default), which
 * behaves as Stripe does with its test cards and delivers webhooks signed as Stripe signs them.
 */
export const PAYMENT_GATEWAY = Symbol('PaymentGateway');

/** A PaymentIntent as the product needs it. */
export interface CardPayment {
  id: string;
  status: PaymentIntentStatus;
  /** For the browser's confirmation step (3-D Secure). */
  clientSecret: string | null;
  amountPence: number;
  currency: string;
  metadata: Record<string, string>;
}

export interface PayByCard {
  amountPence: number;
  paymentMethodId: string;
  email: string;
  billing: BillingInfo;
  /** Kept on the PaymentIntent: who pays and for which top-up (what the webhook fulfils from). */
  metadata: { userId: string; topupId: string };
  /** The same key, the same PaymentIntent: a double-clicked Pay charges once. */
  idempotencyKey: string;
}

/** The card was refused (Stripe's card_error): `message` is meant for the payer. */
export class CardDeclinedError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly declineCode: string | null,
    readonly paymentIntentId: string | null,
  ) {
    super(message);
    this.name = 'CardDeclinedError';
  }
}

/** The request was refused by the provider as malformed (an unknown PaymentMethod): Stripe's invalid_request_error. */
export class PaymentRequestError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
    this.name = 'PaymentRequestError';
  }
}

/** The provider did not answer, or answered an error of its own: nothing is known to have been charged. */
export class PaymentProviderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PaymentProviderError';
  }
}

/** A webhook whose signature does not verify (forged, altered or too old). */
export class WebhookSignatureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookSignatureError';
  }
}

export interface PaymentGateway {
  readonly mode: 'stripe' | 'test';
  readonly publishableKey: string | null;
  /** Creates and confirms a PaymentIntent for the card. Throws CardDeclinedError, PaymentRequestError, PaymentProviderError. */
  payByCard(input: PayByCard): Promise<CardPayment>;
  retrieve(paymentIntentId: string): Promise<CardPayment>;
  /**
   * Verifies a webhook's `Stripe-Signature` over its raw body (tolerance 300 s) with the `stripe` library, and answers
   * the event. Throws WebhookSignatureError.
   */
  verifyWebhook(rawBody: string, signature: string | undefined): Stripe.Event;
}
