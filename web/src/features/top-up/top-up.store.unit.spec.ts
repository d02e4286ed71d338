import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TopupResponse } from '@seatlink/contracts';
import { useCreditsStore } from '../../lib/credits.store';
import { useSessionStore } from '../../lib/session.store';
import { stubFetch } from '../../testing/fetch-stub';
import { aUser } from '../../testing/fixtures';
import type { BillingInfo } from './top-up';
import { createTopUpStore, type CardPayments, type ConfirmResult } from './top-up.store';

const billing: BillingInfo = {
  email: 'uma@example.com',
  name: 'Uma User',
  address: { line1: '1 Quay Street', line2: null, city: 'Bristol', state: null, postal_code: 'BS1 4DJ', country: 'GB' },
  phone: null,
};

function answer(overrides: Partial<TopupResponse> = {}): TopupResponse {
  return {
    success: true,
    payment_intent_status: 'succeeded',
    payment_intent_client_secret: 'pi_1_secret_abc',
    payment_intent_id: 'pi_1',
    balance: 125,
    ...overrides,
  };
}

const needsAction = answer({ success: false, payment_intent_status: 'requires_action', balance: undefined });

function aCard(
  confirm: (payment: { id: string; clientSecret: string; amount: number }) => Promise<ConfirmResult> = async () => ({
    status: 'succeeded',
  }),
) {
  return {
    createPaymentMethod: vi.fn<CardPayments['createPaymentMethod']>(async () => ({ id: 'pm_card_visa' })),
    confirmPayment: vi.fn(confirm),
  };
}

beforeEach(() => {
  useSessionStore.getState().signedIn(aUser({ id: 'u-1', balance: 100 }));
});

afterEach(() => {
  vi.unstubAllGlobals();
  useSessionStore.getState().signedOut();
});

describe('top-up store: paying', () => {
  it('sends POST /v1/topup with an Idempotency-Key and, on success, holds the transaction and the new balance', async () => {
    const calls = stubFetch({ status: 200, body: answer() });
    const store = createTopUpStore();
    const card = aCard();
    expect(await store.getState().pay({ amount: 25, billing, card })).toBe(true);

    expect(card.createPaymentMethod).toHaveBeenCalledWith(billing);
    expect(card.confirmPayment).not.toHaveBeenCalled();
    expect(calls).toEqual([
      {
        url: '/v1/topup',
        method: 'POST',
        credentials: 'include',
        body: { payment_id: 'pm_card_visa', amount: 25, email: 'uma@example.com', billing_info: billing },
      },
    ]);
    expect(calls[0]!.headers['Idempotency-Key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(store.getState()).toMatchObject({
      isLoading: false,
      error: null,
      success: true,
      lastTransaction: { paymentIntentId: 'pi_1', amount: 25, credits: 25, status: 'succeeded', balance: 125 },
    });
    expect(useCreditsStore.getState().balance).toBe(125);
  });

  it("refuses an incomplete address with 'Please fill in all required address fields.' and sends nothing", async () => {
    const calls = stubFetch();
    const store = createTopUpStore();
    const card = aCard();
    expect(await store.getState().pay({ amount: 25, billing: null, card })).toBe(false);
    expect(store.getState()).toMatchObject({
      error: 'Please fill in all required address fields.',
      isLoading: false,
      success: false,
    });
    expect(card.createPaymentMethod).not.toHaveBeenCalled();
    expect(calls).toEqual([]);
  });

  it('shows what the card field says when it makes no PaymentMethod, and sends nothing', async () => {
    const calls = stubFetch();
    const store = createTopUpStore();
    const card = aCard();
    card.createPaymentMethod.mockResolvedValueOnce({ error: 'Your card number is incomplete.' });
    expect(await store.getState().pay({ amount: 25, billing, card })).toBe(false);
    expect(store.getState()).toMatchObject({ error: 'Your card number is incomplete.', isLoading: false });
    expect(calls).toEqual([]);
  });

  it("shows the bank's message for a declined card (402 card_error), and the balance stays", async () => {
    stubFetch({
      status: 402,
      body: { message: 'Your card was declined.', code: 'card_declined', type: 'card_error', statusCode: 402 },
    });
    const store = createTopUpStore();
    expect(await store.getState().pay({ amount: 25, billing, card: aCard() })).toBe(false);
    expect(store.getState()).toMatchObject({ error: 'Your card was declined.', success: false, isLoading: false });
    expect(useCreditsStore.getState().balance).toBe(100);
  });

  it("shows the server's message for a refused amount, and 'Failed to process payment' when it has none", async () => {
    stubFetch(
      { status: 400, body: { message: 'Amount must be a whole number of pounds from 5 to 10000' } },
      { status: 500 },
    );
    const store = createTopUpStore();
    await store.getState().pay({ amount: 3, billing, card: aCard() });
    expect(store.getState().error).toBe('Amount must be a whole number of pounds from 5 to 10000');
    await store.getState().pay({ amount: 25, billing, card: aCard() });
    expect(store.getState().error).toBe('Failed to process payment');
  });

  it('retries a payment the provider did not answer with the same key; each Pay has a key of its own', async () => {
    const calls = stubFetch(
      { status: 502, body: { message: 'An error occurred while processing your payment.' } },
      { status: 200, body: answer({ payment_intent_id: 'pi_1' }) },
      { status: 402, body: { message: 'Your card has insufficient funds.', type: 'card_error' } },
      { status: 402, body: { message: 'Your card has insufficient funds.', type: 'card_error' } },
    );
    const store = createTopUpStore();
    expect(await store.getState().pay({ amount: 25, billing, card: aCard() })).toBe(true);
    expect(calls[0]!.headers['Idempotency-Key']).toBe(calls[1]!.headers['Idempotency-Key']);

    const other = createTopUpStore();
    await other.getState().pay({ amount: 25, billing, card: aCard() });
    await other.getState().pay({ amount: 25, billing, card: aCard() });
    expect(other.getState().error).toBe('Your card has insufficient funds.');
    expect(calls[2]!.headers['Idempotency-Key']).not.toBe(calls[3]!.headers['Idempotency-Key']);
    expect(calls[2]!.headers['Idempotency-Key']).not.toBe(calls[0]!.headers['Idempotency-Key']);
  });

  it('ignores Pay while a payment runs, and after it succeeded', async () => {
    const calls = stubFetch({ status: 200, body: answer() });
    const store = createTopUpStore();
    const first = store.getState().pay({ amount: 25, billing, card: aCard() });
    expect(store.getState().isLoading).toBe(true);
    expect(await store.getState().pay({ amount: 25, billing, card: aCard() })).toBe(false);
    expect(await first).toBe(true);
    expect(await store.getState().pay({ amount: 25, billing, card: aCard() })).toBe(false);
    expect(calls).toHaveLength(1);
  });

  it("says 'Error during payment' when the card field itself breaks", async () => {
    stubFetch();
    const store = createTopUpStore();
    const card = aCard();
    card.createPaymentMethod.mockRejectedValueOnce(new Error('stripe.js went away'));
    expect(await store.getState().pay({ amount: 25, billing, card })).toBe(false);
    expect(store.getState()).toMatchObject({ error: 'Error during payment', isLoading: false });
  });
});

describe('top-up store: payments that need the browser (3-D Secure)', () => {
  it('confirms with the client secret, then completes on the server and succeeds', async () => {
    const calls = stubFetch({ status: 200, body: needsAction }, { status: 200, body: answer({ balance: 150 }) });
    const store = createTopUpStore();
    const card = aCard();
    expect(await store.getState().pay({ amount: 50, billing, card })).toBe(true);
    expect(card.confirmPayment).toHaveBeenCalledWith({ id: 'pi_1', clientSecret: 'pi_1_secret_abc', amount: 50 });
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual(['POST /v1/topup', 'POST /v1/topup/pi_1/complete']);
    expect(calls[1]!.headers['Idempotency-Key']).toBeTruthy();
    expect(store.getState()).toMatchObject({
      success: true,
      lastTransaction: { amount: 50, credits: 50, status: 'succeeded', balance: 150 },
    });
    expect(useCreditsStore.getState().balance).toBe(150);
  });

  it.each([
    ['requires_payment_method', 'Payment declined. Please try another payment method.'],
    ['canceled', 'Payment cancelled'],
    ['processing', 'An error occurred while processing your payment.'],
  ] as const)('a confirmation that ends %s shows %j and completes nothing', async (status, message) => {
    const calls = stubFetch({ status: 200, body: needsAction });
    const store = createTopUpStore();
    const card = aCard(async () => ({ status }));
    expect(await store.getState().pay({ amount: 25, billing, card })).toBe(false);
    expect(store.getState()).toMatchObject({
      error: message,
      success: false,
      isLoading: false,
      lastTransaction: { status },
    });
    expect(calls).toHaveLength(1);
  });

  it('shows the message of a confirmation that failed in the browser', async () => {
    stubFetch({ status: 200, body: answer({ success: false, payment_intent_status: 'requires_confirmation' }) });
    const store = createTopUpStore();
    const card = aCard(async () => ({ error: 'We are unable to authenticate your payment method.' }));
    expect(await store.getState().pay({ amount: 25, billing, card })).toBe(false);
    expect(store.getState().error).toBe('We are unable to authenticate your payment method.');
  });

  it('maps a status answered at once without success, and a completion that did not credit', async () => {
    stubFetch(
      { status: 200, body: answer({ success: false, payment_intent_status: 'canceled', balance: undefined }) },
      { status: 200, body: needsAction },
      { status: 200, body: answer({ success: false, balance: undefined }) },
    );
    const store = createTopUpStore();
    await store.getState().pay({ amount: 25, billing, card: aCard() });
    expect(store.getState().error).toBe('Payment cancelled');
    await store.getState().pay({ amount: 25, billing, card: aCard() });
    expect(store.getState().error).toBe('An error occurred while processing your payment.');
  });

  it('runs the test challenge: shows it, and the answer decides', async () => {
    const calls = stubFetch(
      { status: 200, body: needsAction },
      { status: 200, body: { payment_intent_id: 'pi_1', payment_intent_status: 'succeeded' } },
      { status: 200, body: answer() },
    );
    const store = createTopUpStore();
    const card = aCard((payment) => store.getState().confirmWithTestChallenge(payment));
    const paying = store.getState().pay({ amount: 25, billing, card });
    await vi.waitFor(() => expect(store.getState().challenge).not.toBeNull());
    expect(store.getState().challenge).toEqual({
      paymentIntentId: 'pi_1',
      clientSecret: 'pi_1_secret_abc',
      amount: 25,
    });
    expect(store.getState().isLoading).toBe(true);

    await store.getState().answerChallenge('approve');
    expect(await paying).toBe(true);
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      'POST /v1/topup',
      'POST /v1/payments/test/intents/pi_1/authenticate',
      'POST /v1/topup/pi_1/complete',
    ]);
    expect(calls[1]!.body).toEqual({ client_secret: 'pi_1_secret_abc', outcome: 'approve' });
    expect(store.getState()).toMatchObject({ challenge: null, authenticating: false, success: true });
  });

  it('a failed test challenge is a decline', async () => {
    const calls = stubFetch(
      { status: 200, body: needsAction },
      { status: 200, body: { payment_intent_id: 'pi_1', payment_intent_status: 'requires_payment_method' } },
    );
    const store = createTopUpStore();
    const card = aCard((payment) => store.getState().confirmWithTestChallenge(payment));
    const paying = store.getState().pay({ amount: 25, billing, card });
    await vi.waitFor(() => expect(store.getState().challenge).not.toBeNull());
    await store.getState().answerChallenge('fail');
    expect(await paying).toBe(false);
    expect(calls[1]!.body).toEqual({ client_secret: 'pi_1_secret_abc', outcome: 'fail' });
    expect(store.getState()).toMatchObject({
      challenge: null,
      error: 'Payment declined. Please try another payment method.',
      success: false,
    });
  });

  it('closing the modal during the challenge forgets the payment and sends nothing more', async () => {
    const calls = stubFetch({ status: 200, body: needsAction });
    const store = createTopUpStore();
    const card = aCard((payment) => store.getState().confirmWithTestChallenge(payment));
    const paying = store.getState().pay({ amount: 25, billing, card });
    await vi.waitFor(() => expect(store.getState().challenge).not.toBeNull());
    store.getState().reset();
    expect(await paying).toBe(false);
    expect(store.getState()).toMatchObject({ challenge: null, isLoading: false, error: null, success: false });
    expect(calls).toHaveLength(1);
  });
});

describe('top-up store: configuration and the user', () => {
  it('reads the payments configuration once and keeps it across reset', async () => {
    const calls = stubFetch({ status: 200, body: { mode: 'test', publishable_key: null } });
    const store = createTopUpStore();
    await store.getState().loadConfig();
    await store.getState().loadConfig();
    store.getState().reset();
    expect(store.getState().config).toEqual({ mode: 'test', publishable_key: null });
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual(['GET /v1/payments/config']);
  });

  it("says 'Something went wrong' when the configuration cannot be read, and tries again on demand", async () => {
    stubFetch({ status: 404 }, { status: 200, body: { mode: 'stripe', publishable_key: 'pk_test_1' } });
    const store = createTopUpStore();
    await store.getState().loadConfig();
    expect(store.getState()).toMatchObject({ config: null, configError: 'Something went wrong' });
    await store.getState().loadConfig();
    expect(store.getState()).toMatchObject({
      config: { mode: 'stripe', publishable_key: 'pk_test_1' },
      configError: null,
    });
  });

  it('re-reads the user after a top-up (GET /v1/me): the balance follows', async () => {
    const calls = stubFetch({ status: 200, body: aUser({ id: 'u-1', balance: 175 }) }, new Error('offline'));
    const store = createTopUpStore();
    await store.getState().refreshUser();
    expect(calls[0]).toMatchObject({ method: 'GET', url: '/v1/me' });
    expect(useCreditsStore.getState().balance).toBe(175);
    // A failed re-read changes nothing (the live push still brings the balance).
    await store.getState().refreshUser();
    expect(useCreditsStore.getState().balance).toBe(175);
  });
});
