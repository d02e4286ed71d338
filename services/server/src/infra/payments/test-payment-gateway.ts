import { randomBytes } from 'node:crypto';
import { Logger } from '@nestjs/common';
import type Stripe from 'stripe';
import {
  type CardPayment,
  CardDeclinedError,
  type PayByCard,
  type PaymentGateway,
  PaymentRequestError,
} from './payment-gateway.port.js';
import { signStripeWebhook, verifyStripeWebhook } from './stripe-webhooks.js';

/** What each of Stripe's test PaymentMethods does when a payment is confirmed with it. */
const CARDS: Record<string, 'succeeds' | 'declined' | 'insufficient_funds' | 'three_d_secure'> = {
  pm_card_visa: 'succeeds',
  pm_card_mastercard: 'succeeds',
  pm_card_chargeDeclined: 'declined',
  pm_card_chargeDeclinedInsufficientFunds: 'insufficient_funds',
  pm_card_threeDSecure2Required: 'three_d_secure',
};

const DECLINES = {
  declined: { message: 'Your card was declined.', decline: 'generic_decline' },
  insufficient_funds: { message: 'Your card has insufficient funds.', decline: 'insufficient_funds' },
} as const;

const AUTHENTICATION_FAILED =
  'We are unable to authenticate your payment method. Please choose a different payment method and try again.';

interface TestIntent extends CardPayment {
  chargeId: string;
  amountRefunded: number;
  lastError: { code: string; message: string; decline_code?: string } | null;
}

/** Delivers a signed webhook to the product's endpoint; answers the HTTP status. */
export type WebhookDelivery = (rawBody: string, signature: string) => Promise<number>;

const id = (prefix: string) => `${prefix}_test_${randomBytes(12).toString('hex')}`;

/**
 * Card payments without a provider (a bare machine, the demo, the tests), with Stripe's test-card behaviour: the
 * Visa test card succeeds, the declined ones are declined with Stripe's messages, the 3-D Secure one needs a step
 * the payer approves or fails. Every change of a payment is delivered to the product's own webhook endpoint, signed
 * exactly as Stripe signs webhooks, so fulfilment runs through the same code for both. Its state is in memory: a
 * restart forgets its payments (what they paid for stays in the event store).
 */
export class TestPaymentGateway implements PaymentGateway {
  readonly mode = 'test' as const;
  readonly publishableKey = null;
  private readonly logger = new Logger('TestPayments');
  private readonly intents = new Map<string, TestIntent>();
  private readonly answers = new Map<string, { intentId: string } | { error: Error }>();
  private deliver: WebhookDelivery | null = null;
  private readonly timers = new Set<NodeJS.Timeout>();
  /** Webhooks not yet delivered (nor given up). */
  private inFlight = 0;

  constructor(private readonly webhookSecret: string) {}

  /** Where webhooks go (the HTTP app, once it exists). */
  connect(deliver: WebhookDelivery) {
    this.deliver = deliver;
  }

  async payByCard(input: PayByCard): Promise<CardPayment> {
    // An idempotency key answers what it answered the first time, an error included (as Stripe does).
    const earlier = this.answers.get(input.idempotencyKey);
    if (earlier) {
      if ('error' in earlier) throw earlier.error;
      return this.view(this.intents.get(earlier.intentId)!);
    }
    const behaviour = CARDS[input.paymentMethodId];
    if (!behaviour) {
      const error = new PaymentRequestError(`No such PaymentMethod: '${input.paymentMethodId}'`, 'resource_missing');
      this.answers.set(input.idempotencyKey, { error });
      throw error;
    }
    const intent: TestIntent = {
      id: id('pi'),
      status: 'requires_confirmation',
      clientSecret: null,
      amountPence: input.amountPence,
      currency: 'gbp',
      metadata: { ...input.metadata },
      chargeId: id('ch'),
      amountRefunded: 0,
      lastError: null,
    };
    intent.clientSecret = `${intent.id}_secret_${randomBytes(12).toString('hex')}`;
    this.intents.set(intent.id, intent);
    if (behaviour === 'succeeds') {
      intent.status = 'succeeded';
      this.emit('payment_intent.succeeded', intent);
    } else if (behaviour === 'three_d_secure') {
      intent.status = 'requires_action';
    } else {
      const { message, decline } = DECLINES[behaviour];
      intent.status = 'requires_payment_method';
      intent.lastError = { code: 'card_declined', message, decline_code: decline };
      this.emit('payment_intent.payment_failed', intent);
      const error = new CardDeclinedError(message, 'card_declined', decline, intent.id);
      this.answers.set(input.idempotencyKey, { error });
      throw error;
    }
    this.answers.set(input.idempotencyKey, { intentId: intent.id });
    return this.view(intent);
  }

  async retrieve(paymentIntentId: string): Promise<CardPayment> {
    const intent = this.intents.get(paymentIntentId);
    if (!intent) throw new PaymentRequestError(`No such payment_intent: '${paymentIntentId}'`, 'resource_missing');
    return this.view(intent);
  }

  verifyWebhook(rawBody: string, signature: string | undefined): Stripe.Event {
    return verifyStripeWebhook(rawBody, signature, this.webhookSecret);
  }

  /** The payer's 3-D Secure step: approved, the payment succeeds; failed, it needs another card. */
  authenticate(paymentIntentId: string, clientSecret: string, outcome: 'approve' | 'fail'): CardPayment {
    const intent = this.intents.get(paymentIntentId);
    if (!intent || intent.clientSecret !== clientSecret) {
      throw new PaymentRequestError('No such payment to authenticate', 'resource_missing');
    }
    if (intent.status !== 'requires_action') return this.view(intent);
    if (outcome === 'approve') {
      intent.status = 'succeeded';
      this.emit('payment_intent.succeeded', intent);
    } else {
      intent.status = 'requires_payment_method';
      intent.lastError = { code: 'payment_intent_authentication_failure', message: AUTHENTICATION_FAILED };
      this.emit('payment_intent.payment_failed', intent);
    }
    return this.view(intent);
  }

  /** Money back to the card (all of it by default): Stripe sends charge.refunded with the amount refunded so far. */
  refund(paymentIntentId: string, amountPence?: number) {
    const intent = this.mustSucceed(paymentIntentId);
    intent.amountRefunded = Math.min(intent.amountPence, intent.amountRefunded + (amountPence ?? intent.amountPence));
    this.emit('charge.refunded', intent, this.charge(intent));
  }

  /** A dispute opened and lost: charge.dispute.created, then charge.dispute.closed with status lost. */
  loseDispute(paymentIntentId: string) {
    const intent = this.mustSucceed(paymentIntentId);
    const dispute = (status: string) => ({
      id: `dp_${intent.chargeId}`,
      object: 'dispute',
      amount: intent.amountPence,
      currency: 'gbp',
      charge: intent.chargeId,
      payment_intent: intent.id,
      reason: 'fraudulent',
      status,
    });
    this.emit('charge.dispute.created', intent, dispute('needs_response'));
    this.emit('charge.dispute.closed', intent, dispute('lost'));
  }

  /** Waits for the webhooks under way (tests). */
  async settled(): Promise<void> {
    while (this.inFlight > 0) await new Promise((r) => setTimeout(r, 10));
  }

  close() {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.inFlight = 0;
  }

  private mustSucceed(paymentIntentId: string): TestIntent {
    const intent = this.intents.get(paymentIntentId);
    if (!intent || intent.status !== 'succeeded') {
      throw new PaymentRequestError('Only a succeeded payment can be refunded or disputed', 'charge_not_succeeded');
    }
    return intent;
  }

  private view(intent: TestIntent): CardPayment {
    const { chargeId: _charge, amountRefunded: _refunded, lastError: _error, ...payment } = intent;
    return { ...payment, metadata: { ...payment.metadata } };
  }

  private charge(intent: TestIntent) {
    return {
      id: intent.chargeId,
      object: 'charge',
      amount: intent.amountPence,
      amount_refunded: intent.amountRefunded,
      refunded: intent.amountRefunded >= intent.amountPence,
      currency: 'gbp',
      payment_intent: intent.id,
      metadata: { ...intent.metadata },
    };
  }

  /** Sends the event as Stripe would: a snapshot of the object, signed, retried when the endpoint fails. */
  private emit(type: string, intent: TestIntent, object?: Record<string, unknown>) {
    const event = {
      id: id('evt'),
      object: 'event',
      api_version: '2026-01-28.clover',
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
      data: {
        object: object ?? {
          id: intent.id,
          object: 'payment_intent',
          amount: intent.amountPence,
          amount_received: intent.status === 'succeeded' ? intent.amountPence : 0,
          currency: intent.currency,
          status: intent.status,
          metadata: { ...intent.metadata },
          latest_charge: intent.chargeId,
          last_payment_error: intent.lastError,
        },
      },
    };
    const body = JSON.stringify(event);
    this.inFlight++;
    const attempt = (n: number) => {
      const timer = setTimeout(
        () => {
          this.timers.delete(timer);
          const deliver = this.deliver;
          if (!deliver) {
            this.inFlight--;
            return;
          }
          void deliver(body, signStripeWebhook(body, this.webhookSecret))
            .then((status) => {
              if (status >= 300) throw new Error(`the endpoint answered ${status}`);
              this.inFlight--;
            })
            .catch((err: unknown) => {
              if (n < 5) return attempt(n + 1);
              this.inFlight--;
              this.logger.warn(`webhook ${event.id} (${type}) not delivered: ${(err as Error).message}`);
            });
        },
        n === 0 ? 0 : 200 * 4 ** (n - 1),
      );
      this.timers.add(timer);
    };
    attempt(0);
  }
}
