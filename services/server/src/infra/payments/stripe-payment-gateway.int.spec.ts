import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  CardDeclinedError,
  type PayByCard,
  PaymentProviderError,
  PaymentRequestError,
  WebhookSignatureError,
} from './payment-gateway.port.js';
import { StripePaymentGateway } from './stripe-payment-gateway.js';
import { signStripeWebhook } from './stripe-webhooks.js';

interface Seen {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  form: URLSearchParams;
}

const intent = (id: string, status: string, form: URLSearchParams) => ({
  id,
  object: 'payment_intent',
  amount: Number(form.get('amount') ?? 2500),
  currency: form.get('currency') ?? 'gbp',
  status,
  client_secret: `${id}_secret_abc`,
  metadata: { userId: form.get('metadata[userId]'), topupId: form.get('metadata[topupId]') },
});

/**
 * A stand-in of Stripe's API on this machine: the real `stripe` SDK is pointed at it, and it records what the SDK
 * sends and answers as Stripe answers (PaymentIntents created and confirmed, card errors, invalid requests, outages).
 */
function stripeStandIn() {
  const seen: Seen[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      const form = new URLSearchParams(body);
      const path = req.url ?? '';
      seen.push({ method: req.method ?? '', path, headers: req.headers, form });
      const send = (status: number, json: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${seen.length}` });
        res.end(JSON.stringify(json));
      };
      if (req.method === 'GET' && path.startsWith('/v1/payment_intents/pi_known')) {
        return send(200, intent('pi_known', 'succeeded', new URLSearchParams({ 'metadata[userId]': 'u1' })));
      }
      if (req.method === 'GET') {
        return send(404, {
          error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such payment_intent' },
        });
      }
      switch (form.get('payment_method')) {
        case 'pm_card_visa':
          return send(200, intent('pi_ok', 'succeeded', form));
        case 'pm_card_threeDSecure2Required':
          return send(200, intent('pi_3ds', 'requires_action', form));
        case 'pm_card_chargeDeclined':
          return send(402, {
            error: {
              type: 'card_error',
              code: 'card_declined',
              decline_code: 'generic_decline',
              message: 'Your card was declined.',
              payment_intent: intent('pi_declined', 'requires_payment_method', form),
            },
          });
        case 'pm_boom':
          return send(500, { error: { type: 'api_error', message: 'Something went wrong on our end' } });
        default:
          return send(400, {
            error: {
              type: 'invalid_request_error',
              code: 'resource_missing',
              message: `No such PaymentMethod: '${form.get('payment_method')}'`,
            },
          });
      }
    });
  });
  return { server, seen };
}

const payment = (paymentMethodId: string, idempotencyKey = 'topup-u1-k1'): PayByCard => ({
  amountPence: 2500,
  paymentMethodId,
  email: 'payer@example.com',
  billing: {
    email: 'payer@example.com',
    name: 'Ada Lovelace',
    address: { line1: '1 High St', line2: null, city: 'London', state: null, postal_code: 'N1', country: 'GB' },
    phone: null,
  },
  metadata: { userId: 'u1', topupId: 'k1' },
  idempotencyKey,
});

describe('the Stripe adapter, against a stand-in of Stripe’s API', () => {
  const standIn = stripeStandIn();
  let gateway: StripePaymentGateway;
  const secret = 'whsec_adapter_test';

  beforeAll(async () => {
    standIn.server.listen(0, '127.0.0.1');
    await once(standIn.server, 'listening');
    const { port } = standIn.server.address() as AddressInfo;
    gateway = new StripePaymentGateway({
      secretKey: 'sk_test_standin',
      webhookSecret: secret,
      publishableKey: 'pk_test_standin',
      apiUrl: `http://127.0.0.1:${port}`,
    });
  });
  afterAll(() => new Promise<void>((resolve) => standIn.server.close(() => resolve())));
  beforeEach(() => {
    standIn.seen.length = 0;
  });

  it('creates and confirms a PaymentIntent in pence, GBP, cards only, the payer in its metadata, with the idempotency key', async () => {
    const result = await gateway.payByCard(payment('pm_card_visa'));
    expect(result).toMatchObject({ id: 'pi_ok', status: 'succeeded', amountPence: 2500, currency: 'gbp' });
    expect(result.metadata).toEqual({ userId: 'u1', topupId: 'k1' });
    expect(standIn.seen).toHaveLength(1);
    const [request] = standIn.seen;
    expect(request!.method).toBe('POST');
    expect(request!.path).toBe('/v1/payment_intents');
    expect(request!.headers.authorization).toBe('Bearer sk_test_standin');
    expect(request!.headers['idempotency-key']).toBe('topup-u1-k1');
    expect(Object.fromEntries(request!.form)).toMatchObject({
      amount: '2500',
      currency: 'gbp',
      payment_method: 'pm_card_visa',
      confirm: 'true',
      use_stripe_sdk: 'true',
      receipt_email: 'payer@example.com',
      'metadata[userId]': 'u1',
      'metadata[topupId]': 'k1',
      'automatic_payment_methods[enabled]': 'true',
      'automatic_payment_methods[allow_redirects]': 'never',
      'payment_method_options[card][request_three_d_secure]': 'automatic',
    });
  });

  it('answers a 3-D Secure payment with its client secret for the browser', async () => {
    const result = await gateway.payByCard(payment('pm_card_threeDSecure2Required'));
    expect(result).toMatchObject({ status: 'requires_action', clientSecret: 'pi_3ds_secret_abc' });
  });

  it('turns Stripe’s card_error into a decline with the bank’s message and the PaymentIntent', async () => {
    const err = await gateway.payByCard(payment('pm_card_chargeDeclined')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CardDeclinedError);
    expect(err).toMatchObject({
      message: 'Your card was declined.',
      code: 'card_declined',
      declineCode: 'generic_decline',
      paymentIntentId: 'pi_declined',
    });
  });

  it('turns an invalid request into PaymentRequestError', async () => {
    const err = await gateway.payByCard(payment('pm_nope')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PaymentRequestError);
    expect(err).toMatchObject({ code: 'resource_missing', message: "No such PaymentMethod: 'pm_nope'" });
    await expect(gateway.retrieve('pi_unknown')).rejects.toBeInstanceOf(PaymentRequestError);
  });

  it('retries Stripe’s own failures with the same idempotency key, then reports the provider down', async () => {
    const err = await gateway.payByCard(payment('pm_boom', 'topup-u1-boom')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PaymentProviderError);
    expect(standIn.seen.length).toBe(3);
    expect(new Set(standIn.seen.map((s) => s.headers['idempotency-key']))).toEqual(new Set(['topup-u1-boom']));
  }, 20_000);

  it('reads a PaymentIntent back', async () => {
    expect(await gateway.retrieve('pi_known')).toMatchObject({ id: 'pi_known', status: 'succeeded' });
    expect(standIn.seen[0]).toMatchObject({ method: 'GET', path: '/v1/payment_intents/pi_known' });
  });

  it('verifies webhook signatures with the stripe library: forged, altered and stale ones are refused', () => {
    const body = JSON.stringify({
      id: 'evt_1',
      object: 'event',
      type: 'payment_intent.succeeded',
      data: { object: {} },
    });
    expect(gateway.verifyWebhook(body, signStripeWebhook(body, secret)).id).toBe('evt_1');
    expect(() => gateway.verifyWebhook(body, signStripeWebhook(body, 'whsec_other'))).toThrow(WebhookSignatureError);
    expect(() => gateway.verifyWebhook(body.replace('evt_1', 'evt_2'), signStripeWebhook(body, secret))).toThrow(
      WebhookSignatureError,
    );
    const old = Math.floor(Date.now() / 1000) - 301;
    expect(() => gateway.verifyWebhook(body, signStripeWebhook(body, secret, old))).toThrow(WebhookSignatureError);
    expect(() => gateway.verifyWebhook(body, undefined)).toThrow(WebhookSignatureError);
  });
});
