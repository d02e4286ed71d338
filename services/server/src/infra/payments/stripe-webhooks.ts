import Stripe from 'stripe';
import { WebhookSignatureError } from './payment-gateway.port.js';

/** Stripe's tolerance for a webhook's timestamp: an older one is a replay. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/** The `stripe` library's webhook helpers (no API key needed for them). */
const webhooks = new Stripe('sk_webhooks_only').webhooks;

export function verifyStripeWebhook(rawBody: string, signature: string | undefined, secret: string): Stripe.Event {
  if (!signature) throw new WebhookSignatureError('No Stripe-Signature header');
  try {
    return webhooks.constructEvent(rawBody, signature, secret, WEBHOOK_TOLERANCE_SECONDS);
  } catch (err) {
    throw new WebhookSignatureError(err instanceof Error ? err.message : 'The signature does not verify');
  }
}

/** The `Stripe-Signature` header Stripe would send for this body (the test gateway signs with it). */
export function signStripeWebhook(rawBody: string, secret: string, timestamp = Math.floor(Date.now() / 1000)): string {
  return webhooks.generateTestHeaderString({ payload: rawBody, secret, timestamp });
}
