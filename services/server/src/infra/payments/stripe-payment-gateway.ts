import Stripe from 'stripe';
import {
  type CardPayment,
  CardDeclinedError,
  type PayByCard,
  type PaymentGateway,
  PaymentProviderError,
  PaymentRequestError,
} from './payment-gateway.port.js';
import { verifyStripeWebhook } from './stripe-webhooks.js';

export interface StripeGatewayOptions {
  secretKey: string;
  webhookSecret: string;
  publishableKey: string | null;
  /** Another address for Stripe's API (a stand-in in tests); Stripe's own by default. */
  apiUrl?: string;
}

function toPayment(intent: Stripe.PaymentIntent): CardPayment {
  return {
    id: intent.id,
    status: intent.status as CardPayment['status'],
    clientSecret: intent.client_secret,
    amountPence: intent.amount,
    currency: intent.currency,
    metadata: { ...intent.metadata },
  };
}

/** Stripe's PaymentIntents: created and confirmed server-side with the card the browser made, in pence, GBP. */
export class StripePaymentGateway implements PaymentGateway {
  readonly mode = 'stripe' as const;
  readonly publishableKey: string | null;
  private readonly stripe: Stripe;

  constructor(private readonly options: StripeGatewayOptions) {
    this.publishableKey = options.publishableKey;
    const api = options.apiUrl ? new URL(options.apiUrl) : null;
    this.stripe = new Stripe(options.secretKey, {
      maxNetworkRetries: 2,
      timeout: 20_000,
      ...(api
        ? {
            host: api.hostname,
            port: api.port || (api.protocol === 'https:' ? 443 : 80),
            protocol: api.protocol === 'https:' ? 'https' : 'http',
          }
        : {}),
    });
  }

  async payByCard(input: PayByCard): Promise<CardPayment> {
    try {
      const intent = await this.stripe.paymentIntents.create(
        {
          amount: input.amountPence,
          currency: 'gbp',
          payment_method: input.paymentMethodId,
          // Cards only, confirmed here: no payment method that would need a redirect.
          automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
          confirm: true,
          // 3-D Secure is completed in the browser with the client secret (stripe.js), not by a redirect.
          use_stripe_sdk: true,
          receipt_email: input.email,
          description: `Seatlink credits (${input.amountPence / 100})`,
          // The billing details travel with the PaymentMethod the browser made from the card and address elements.
          metadata: input.metadata,
          payment_method_options: { card: { request_three_d_secure: 'automatic' } },
        },
        { idempotencyKey: input.idempotencyKey },
      );
      return toPayment(intent);
    } catch (err) {
      throw translate(err);
    }
  }

  async retrieve(paymentIntentId: string): Promise<CardPayment> {
    try {
      return toPayment(await this.stripe.paymentIntents.retrieve(paymentIntentId));
    } catch (err) {
      throw translate(err);
    }
  }

  verifyWebhook(rawBody: string, signature: string | undefined): Stripe.Event {
    return verifyStripeWebhook(rawBody, signature, this.options.webhookSecret);
  }
}

function translate(err: unknown): Error {
  if (err instanceof Stripe.errors.StripeCardError) {
    const intent = (err.raw as { payment_intent?: { id?: string } } | undefined)?.payment_intent;
    return new CardDeclinedError(
      err.message,
      err.code ?? 'card_declined',
      err.decline_code ?? null,
      intent?.id ?? null,
    );
  }
  if (err instanceof Stripe.errors.StripeInvalidRequestError) {
    return new PaymentRequestError(err.message, err.code ?? 'invalid_request');
  }
  return new PaymentProviderError(err instanceof Error ? err.message : 'The payment provider did not answer');
}
