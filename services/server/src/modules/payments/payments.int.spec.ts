import { randomUUID } from 'node:crypto';
import { CommandBus } from '@nestjs/cqrs';
import type { TopupResponse, User, UserStateAt } from '@seatlink/contracts';
import { PAYMENT_MESSAGES } from '@seatlink/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE } from '../../infra/db/database.module.js';
import type { Database } from '../../infra/db/database.js';
import { EVENT_STORE, type EventStore } from '../../infra/event-store/event-store.port.js';
import { PAYMENT_GATEWAY } from '../../infra/payments/payment-gateway.port.js';
import { signStripeWebhook } from '../../infra/payments/stripe-webhooks.js';
import type { TestPaymentGateway } from '../../infra/payments/test-payment-gateway.js';
import { ApiClient, startTestStack, subscriptionsCaughtUp, type TestStack } from '../../testing/test-app.js';
import { billing, topupBody } from '../../testing/topup.js';
import { createVerifiedUser } from '../../testing/users.js';
import { creditStream } from '../credits/credits.events.js';
import { CreditsCommandMessage } from '../credits/credits.command.js';

const WEBHOOK_SECRET = `whsec_test_${randomUUID().replaceAll('-', '')}`;

describe('card top-ups (test gateway, real PostgreSQL)', () => {
  let stack: TestStack;
  let gateway: TestPaymentGateway;
  let store: EventStore;
  let database: Database;
  let admin: ApiClient;

  /** A new signed-in user with 0 credits. */
  const payer = async () => {
    const created = await createVerifiedUser(stack.app);
    const client = new ApiClient(stack.baseUrl);
    expect((await client.login(created.email, created.password)).status).toBe(200);
    return { client, id: created.id };
  };
  const balanceOf = async (client: ApiClient) =>
    ((await client.request('GET', '/v1/me')).body as unknown as User).balance;
  const topup = (client: ApiClient, body: unknown, key = randomUUID()) =>
    client.request('POST', '/v1/topup', body, { headers: { 'Idempotency-Key': key } });
  const creditEvents = async (userId: string) => (await store.readStream(creditStream(userId))).events;
  const purchases = async (userId: string) =>
    (await creditEvents(userId)).filter((e) => e.type === 'CreditsPurchased').length;
  /** Posts a webhook as the provider would, or with what a test puts in its place. */
  const postWebhook = (raw: string, signature: string | null) =>
    fetch(`${stack.baseUrl}/v1/payments/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(signature ? { 'stripe-signature': signature } : {}) },
      body: raw,
    });
  const succeededEvent = (intent: { id: string; amount: number; userId: string }, eventId = `evt_${randomUUID()}`) =>
    JSON.stringify({
      id: eventId,
      object: 'event',
      type: 'payment_intent.succeeded',
      created: Math.floor(Date.now() / 1000),
      data: {
        object: {
          id: intent.id,
          object: 'payment_intent',
          amount: intent.amount,
          amount_received: intent.amount,
          currency: 'gbp',
          status: 'succeeded',
          metadata: { userId: intent.userId, topupId: 'x' },
        },
      },
    });
  const settle = async () => {
    await gateway.settled();
    await subscriptionsCaughtUp(stack.app);
  };

  beforeAll(async () => {
    stack = await startTestStack({ env: { STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET } });
    gateway = stack.app.get<TestPaymentGateway>(PAYMENT_GATEWAY);
    store = stack.app.get<EventStore>(EVENT_STORE);
    database = stack.app.get<Database>(DATABASE);
    admin = new ApiClient(stack.baseUrl);
    await admin.login('admin@seatlink.test', 'Admin123!');
  }, 60_000);
  afterAll(async () => {
    await stack?.close();
  });

  it('tells the browser which card field to show', async () => {
    const { client } = await payer();
    const res = await client.request('GET', '/v1/payments/config');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ mode: 'test', publishable_key: null });
    expect((await new ApiClient(stack.baseUrl).request('GET', '/v1/payments/config')).status).toBe(401);
  });

  it('credits a Visa payment at once, one credit per pound, and its webhook afterwards adds nothing', async () => {
    const { client, id } = await payer();
    const res = await topup(client, topupBody(25));
    expect(res.status).toBe(200);
    const answer = res.body as unknown as TopupResponse;
    expect(answer).toMatchObject({ success: true, payment_intent_status: 'succeeded', balance: 25 });
    expect(answer.payment_intent_id).toMatch(/^pi_/);
    expect(await balanceOf(client)).toBe(25);
    await settle();
    expect(await balanceOf(client)).toBe(25);
    expect(await purchases(id)).toBe(1);
    const [purchase] = (await creditEvents(id)).filter((e) => e.type === 'CreditsPurchased');
    expect(purchase!.data).toMatchObject({ amount: 25, amountPence: 2500, paymentIntentId: answer.payment_intent_id });
  });

  it.each([
    ['pm_card_chargeDeclined', 'Your card was declined.', 'generic_decline'],
    ['pm_card_chargeDeclinedInsufficientFunds', 'Your card has insufficient funds.', 'insufficient_funds'],
  ])('refuses %s with the bank’s own message, 402, and credits nothing', async (card, message, decline) => {
    const { client, id } = await payer();
    const res = await topup(client, topupBody(50, card));
    expect(res.status).toBe(402);
    expect(res.body).toMatchObject({ message, code: 'card_declined', type: 'card_error', decline_code: decline });
    await settle();
    expect(await balanceOf(client)).toBe(0);
    expect(await creditEvents(id)).toHaveLength(0);
  });

  it('3-D Secure approved: the answer asks for the step, the payer approves, and completing credits once', async () => {
    const { client, id } = await payer();
    const first = (await topup(client, topupBody(40, 'pm_card_threeDSecure2Required')))
      .body as unknown as TopupResponse;
    expect(first).toMatchObject({ success: false, payment_intent_status: 'requires_action' });
    expect(first.payment_intent_client_secret).toMatch(/_secret_/);
    expect(await balanceOf(client)).toBe(0);
    const step = await client.request('POST', `/v1/payments/test/intents/${first.payment_intent_id}/authenticate`, {
      client_secret: first.payment_intent_client_secret,
      outcome: 'approve',
    });
    expect(step.status).toBe(200);
    expect(step.body).toMatchObject({ payment_intent_status: 'succeeded' });
    const done = await client.request('POST', `/v1/topup/${first.payment_intent_id}/complete`);
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ success: true, payment_intent_status: 'succeeded', balance: 40 });
    await settle();
    // Completed again, and the webhook too: still once.
    expect((await client.request('POST', `/v1/topup/${first.payment_intent_id}/complete`)).body).toMatchObject({
      success: true,
      balance: 40,
    });
    expect(await balanceOf(client)).toBe(40);
    expect(await purchases(id)).toBe(1);
  });

  it('3-D Secure failed: the payment needs another card and credits nothing', async () => {
    const { client, id } = await payer();
    const first = (await topup(client, topupBody(40, 'pm_card_threeDSecure2Required')))
      .body as unknown as TopupResponse;
    const step = await client.request('POST', `/v1/payments/test/intents/${first.payment_intent_id}/authenticate`, {
      client_secret: first.payment_intent_client_secret,
      outcome: 'fail',
    });
    expect(step.body).toMatchObject({ payment_intent_status: 'requires_payment_method' });
    const done = await client.request('POST', `/v1/topup/${first.payment_intent_id}/complete`);
    expect(done.body).toMatchObject({ success: false, payment_intent_status: 'requires_payment_method' });
    await settle();
    expect(await balanceOf(client)).toBe(0);
    expect(await creditEvents(id)).toHaveLength(0);
  });

  it('credits a payment that succeeds while the browser is gone, from the webhook alone', async () => {
    const { client, id } = await payer();
    const first = (await topup(client, topupBody(30, 'pm_card_threeDSecure2Required')))
      .body as unknown as TopupResponse;
    // The payer approves in a tab that then closes: nobody calls complete.
    gateway.authenticate(first.payment_intent_id, first.payment_intent_client_secret!, 'approve');
    await settle();
    expect(await balanceOf(client)).toBe(30);
    // The browser comes back late: the answer is the same and nothing more is granted.
    expect((await client.request('POST', `/v1/topup/${first.payment_intent_id}/complete`)).body).toMatchObject({
      success: true,
      balance: 30,
    });
    expect(await purchases(id)).toBe(1);
  });

  it('credits a payment charged by a process that died before crediting it, when the webhook comes', async () => {
    const { client, id } = await payer();
    // The card is charged (the provider's side is done) but no answer or grant ever came from the product.
    const payment = await gateway.payByCard({
      amountPence: 1500,
      paymentMethodId: 'pm_card_visa',
      email: 'payer@example.com',
      billing: { ...billing, address: { ...billing.address } },
      metadata: { userId: id, topupId: randomUUID() },
      idempotencyKey: randomUUID(),
    });
    expect(payment.status).toBe('succeeded');
    await settle();
    expect(await balanceOf(client)).toBe(15);
  });

  it('charges once for a double-clicked Pay (the same Idempotency-Key), in parallel and afterwards', async () => {
    const { client, id } = await payer();
    const key = randomUUID();
    const answers = await Promise.all(Array.from({ length: 5 }, () => topup(client, topupBody(25), key)));
    const ok = answers.filter((a) => a.status === 200);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    // The others were told the first is still running (409), never charged again.
    expect(answers.every((a) => a.status === 200 || a.status === 409)).toBe(true);
    const again = await topup(client, topupBody(25), key);
    expect(again.status).toBe(200);
    const ids = new Set([...ok, again].map((a) => (a.body as unknown as TopupResponse).payment_intent_id));
    expect(ids.size).toBe(1);
    await settle();
    expect(await balanceOf(client)).toBe(25);
    expect(await purchases(id)).toBe(1);
  });

  it.each([
    ['an amount under £5', topupBody(4), PAYMENT_MESSAGES.amount],
    ['pence', topupBody(25.5), PAYMENT_MESSAGES.amount],
    ['a string amount', { ...topupBody(25), amount: '25' }, PAYMENT_MESSAGES.amount],
    ['an amount over the maximum', topupBody(10_001), PAYMENT_MESSAGES.amount],
    ['no payment method', { ...topupBody(25), payment_id: undefined }, PAYMENT_MESSAGES.paymentMethod],
    ['a payment method that is not one', topupBody(25, 'tok_visa'), PAYMENT_MESSAGES.paymentMethod],
    ['no address', { ...topupBody(25), billing_info: { ...billing, address: undefined } }, PAYMENT_MESSAGES.address],
    [
      'an empty city',
      { ...topupBody(25), billing_info: { ...billing, address: { ...billing.address, city: '  ' } } },
      PAYMENT_MESSAGES.address,
    ],
    ['a NUL in the name', { ...topupBody(25), billing_info: { ...billing, name: 'Ada\u0000' } }, 'Name'],
    ['a bidi override in the name', { ...topupBody(25), billing_info: { ...billing, name: 'Ada\u202E' } }, 'Name'],
    ['a huge name', { ...topupBody(25), billing_info: { ...billing, name: 'A'.repeat(5000) } }, 'Name is too long'],
    [
      'a country that is not a code',
      { ...topupBody(25), billing_info: { ...billing, address: { ...billing.address, country: 'Britain' } } },
      'Country',
    ],
  ])('refuses %s with a clear 400 and charges nothing', async (_case, body, message) => {
    const { client, id } = await payer();
    const res = await topup(client, body);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(message);
    await settle();
    expect(await creditEvents(id)).toHaveLength(0);
  });

  it('refuses a payment method the provider does not know with its own message (400)', async () => {
    const { client } = await payer();
    const res = await topup(client, topupBody(25, 'pm_card_unknown'));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'resource_missing', type: 'invalid_request_error' });
    expect(res.body.message).toContain('pm_card_unknown');
  });

  it('keeps one payer’s payments from another', async () => {
    const mine = await payer();
    const theirs = await payer();
    const first = (await topup(mine.client, topupBody(40, 'pm_card_threeDSecure2Required')))
      .body as unknown as TopupResponse;
    const path = `/v1/payments/test/intents/${first.payment_intent_id}/authenticate`;
    const step = await theirs.client.request('POST', path, {
      client_secret: first.payment_intent_client_secret,
      outcome: 'approve',
    });
    expect(step.status).toBe(404);
    expect((await theirs.client.request('POST', `/v1/topup/${first.payment_intent_id}/complete`)).status).toBe(404);
    expect((await mine.client.request('POST', `/v1/topup/pi_nothing_here/complete`)).status).toBe(404);
    expect((await mine.client.request('POST', `/v1/topup/not-an-id/complete`)).status).toBe(400);
    const wrongSecret = await mine.client.request('POST', path, { client_secret: 'pi_x_secret_y', outcome: 'approve' });
    expect(wrongSecret.status).toBe(400);
    expect(await balanceOf(mine.client)).toBe(0);
  });

  describe('webhooks', () => {
    it('grants once for the same event delivered 10 times at once, and for 10 events of one payment', async () => {
      const { client, id } = await payer();
      const intent = { id: `pi_test_${randomUUID().replaceAll('-', '')}`, amount: 2000, userId: id };
      const raw = succeededEvent(intent);
      const signature = signStripeWebhook(raw, WEBHOOK_SECRET);
      const answers = await Promise.all(Array.from({ length: 10 }, () => postWebhook(raw, signature)));
      expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
      const others = await Promise.all(
        Array.from({ length: 10 }, () => {
          const body = succeededEvent(intent);
          return postWebhook(body, signStripeWebhook(body, WEBHOOK_SECRET));
        }),
      );
      expect(others.map((a) => a.status)).toEqual(Array(10).fill(200));
      await subscriptionsCaughtUp(stack.app);
      expect(await balanceOf(client)).toBe(20);
      expect(await purchases(id)).toBe(1);
      // A redelivery of a handled event is answered as a duplicate.
      expect(await (await postWebhook(raw, signature)).json()).toEqual({ received: true, duplicate: true });
    });

    it('refuses a forged, altered, unsigned or replayed (over 300 s old) webhook with 400 and writes nothing', async () => {
      const { client, id } = await payer();
      const intent = { id: `pi_test_${randomUUID().replaceAll('-', '')}`, amount: 9900, userId: id };
      const raw = succeededEvent(intent, `evt_${randomUUID()}`);
      const cases: Array<[string, string | null]> = [
        [raw, signStripeWebhook(raw, 'whsec_not_ours')],
        [raw.replace('9900', '99900'), signStripeWebhook(raw, WEBHOOK_SECRET)],
        [raw, null],
        [raw, 'garbage'],
        [raw, signStripeWebhook(raw, WEBHOOK_SECRET, Math.floor(Date.now() / 1000) - 301)],
      ];
      for (const [body, signature] of cases) {
        const res = await postWebhook(body, signature);
        expect(res.status).toBe(400);
        expect(((await res.json()) as { message: string }).message).toBeTruthy();
      }
      const eventId = (JSON.parse(raw) as { id: string }).id;
      const seen = await database.db.execute(sql`select 1 from payment_webhook_events where event_id = ${eventId}`);
      expect((seen as { rows: unknown[] }).rows).toHaveLength(0);
      expect(await creditEvents(id)).toHaveLength(0);
      expect(await balanceOf(client)).toBe(0);
      // Not JSON at all.
      expect((await postWebhook('not json', signStripeWebhook('not json', WEBHOOK_SECRET))).status).toBe(400);
    });

    it('takes credits back for refunds as they add up, once each, and never below zero', async () => {
      const { client, id } = await payer();
      const answer = (await topup(client, topupBody(25))).body as unknown as TopupResponse;
      await settle();
      gateway.refund(answer.payment_intent_id, 1000);
      await settle();
      expect(await balanceOf(client)).toBe(15);
      gateway.refund(answer.payment_intent_id); // the rest: £15 more, £25 in all
      await settle();
      expect(await balanceOf(client)).toBe(0);
      const reversals = (await creditEvents(id)).filter((e) => e.type === 'CreditsReversed');
      expect(reversals.map((e) => (e.data as { requested: number }).requested)).toEqual([10, 15]);

      // Spent before the refund: the balance stops at zero and the shortfall is recorded.
      const second = await payer();
      const paid = (await topup(second.client, topupBody(20))).body as unknown as TopupResponse;
      await admin.request('PUT', `/v1/admin/users/${second.id}/credits`, { credits: 5, reason: 'Test' });
      gateway.refund(paid.payment_intent_id);
      await settle();
      expect(await balanceOf(second.client)).toBe(0);
      const [reversed] = (await creditEvents(second.id)).filter((e) => e.type === 'CreditsReversed');
      expect(reversed!.data).toMatchObject({ requested: 20, amount: 5, balanceAfter: 0, reason: 'refund' });
    });

    it('records a dispute when it opens and takes the credits back when it is lost', async () => {
      const { client, id } = await payer();
      const answer = (await topup(client, topupBody(50))).body as unknown as TopupResponse;
      await settle();
      gateway.loseDispute(answer.payment_intent_id);
      await settle();
      expect(await balanceOf(client)).toBe(0);
      const types = (await creditEvents(id)).map((e) => e.type);
      // The opened and closed webhooks may be handled in either order (Stripe does not promise one): both count.
      expect(types[0]).toBe('CreditsPurchased');
      expect(types.slice(1).sort()).toEqual(['CreditsReversed', 'PaymentDisputed']);
    });

    it('shows top-ups, refunds and disputes in the admin’s view of the user’s history', async () => {
      const { client, id } = await payer();
      const answer = (await topup(client, topupBody(30))).body as unknown as TopupResponse;
      await settle();
      gateway.refund(answer.payment_intent_id, 500);
      await settle();
      const res = await admin.request('GET', `/v1/admin/users/${id}/history?at=${new Date().toISOString()}`);
      expect(res.status).toBe(200);
      const history = res.body as unknown as UserStateAt;
      expect(history.balance).toBe(25);
      expect(history.credit_changes.map((c) => [c.kind, c.change, c.balance_after])).toEqual([
        ['purchased', 30, 30],
        ['reversed', -5, 25],
      ]);
      expect(history.credit_changes[0]!.payment_intent_id).toBe(answer.payment_intent_id);
    });
  });

  it('holds the balance exact under 100 concurrent top-ups and spends on one balance', async () => {
    const { client, id } = await payer();
    const cards = ['pm_card_visa', 'pm_card_chargeDeclined', 'pm_card_visa', 'pm_card_chargeDeclinedInsufficientFunds'];
    const spends = Array.from({ length: 50 }, () => ({ credits: 7 }));
    const results = await Promise.all([
      ...Array.from({ length: 50 }, (_, i) =>
        topup(client, topupBody(5 + (i % 7), cards[i % cards.length])).then((res) => ({
          kind: 'topup' as const,
          ok: res.status === 200,
          amount: 5 + (i % 7),
          status: res.status,
        })),
      ),
      // Spends go through the same credit stream the distribution debits use.
      ...spends.map(() =>
        stack.app
          .get(CommandBus)
          .execute(
            new CreditsCommandMessage(
              {
                type: 'DebitCredits',
                data: {
                  userId: id,
                  cost: 7,
                  reference: randomUUID(),
                  distributionIds: [randomUUID()],
                  now: new Date().toISOString(),
                },
              },
              { actorId: id, commandId: randomUUID() },
            ),
          )
          .then(
            () => ({ kind: 'spend' as const, ok: true, amount: 7, status: 200 }),
            (err: { code?: string }) => ({ kind: 'spend' as const, ok: false, amount: 7, status: err.code }),
          ),
      ),
    ]);
    await settle();
    const bought = results.filter((r) => r.kind === 'topup' && r.ok).reduce((sum, r) => sum + r.amount, 0);
    const spent = results.filter((r) => r.kind === 'spend' && r.ok).reduce((sum, r) => sum + r.amount, 0);
    expect(results.filter((r) => r.kind === 'topup').every((r) => r.status === 200 || r.status === 402)).toBe(true);
    expect(results.filter((r) => r.kind === 'spend' && !r.ok).every((r) => r.status === 'INSUFFICIENT_CREDITS')).toBe(
      true,
    );
    expect(bought).toBeGreaterThan(0);
    expect(await balanceOf(client)).toBe(bought - spent);
    expect(await purchases(id)).toBe(results.filter((r) => r.kind === 'topup' && r.ok).length);
  });
});
