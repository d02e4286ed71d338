import { describe, expect, it, vi } from 'vitest';
import type { StripeCardElement } from '@stripe/stripe-js';
import type { BillingInfo } from '../top-up';
import { stripeCardPayments, type StripePayments } from './stripe-card-payments';

const billing: BillingInfo = {
  email: 'uma@example.com',
  name: 'Uma User',
  address: {
    line1: '1 Quay Street',
    line2: null,
    city: 'Bristol',
    state: 'Avon',
    postal_code: 'BS1 4DJ',
    country: 'GB',
  },
  phone: null,
};

const cardElement = { elementType: 'card' } as unknown as StripeCardElement;

function fakeStripe(overrides: Partial<Record<keyof StripePayments, unknown>> = {}) {
  return {
    createPaymentMethod: vi.fn(async () => ({ paymentMethod: { id: 'pm_1Abc' } })),
    confirmCardPayment: vi.fn(async () => ({ paymentIntent: { status: 'succeeded' } })),
    ...overrides,
  } as unknown as StripePayments & {
    createPaymentMethod: ReturnType<typeof vi.fn>;
    confirmCardPayment: ReturnType<typeof vi.fn>;
  };
}

describe('stripe card payments', () => {
  it('makes a card PaymentMethod from the CardElement with the billing details', async () => {
    const stripe = fakeStripe();
    const payments = stripeCardPayments(stripe, () => cardElement);
    expect(await payments.createPaymentMethod(billing)).toEqual({ id: 'pm_1Abc' });
    expect(stripe.createPaymentMethod).toHaveBeenCalledWith({
      type: 'card',
      card: cardElement,
      billing_details: {
        name: 'Uma User',
        email: 'uma@example.com',
        address: { line1: '1 Quay Street', city: 'Bristol', state: 'Avon', postal_code: 'BS1 4DJ', country: 'GB' },
      },
    });
  });

  it("answers Stripe's own message for card and validation errors, and the unexpected-error text otherwise", async () => {
    const stripe = fakeStripe({
      createPaymentMethod: vi
        .fn()
        .mockResolvedValueOnce({ error: { type: 'validation_error', message: 'Your card number is incomplete.' } })
        .mockResolvedValueOnce({ error: { type: 'api_connection_error', message: 'Network down' } }),
    });
    const payments = stripeCardPayments(stripe, () => cardElement);
    expect(await payments.createPaymentMethod(billing)).toEqual({ error: 'Your card number is incomplete.' });
    expect(await payments.createPaymentMethod(billing)).toEqual({
      error: 'An unexpected error occurred during payment processing.',
    });
  });

  it('confirms with the client secret and answers the resulting status or the error', async () => {
    const stripe = fakeStripe({
      confirmCardPayment: vi
        .fn()
        .mockResolvedValueOnce({ paymentIntent: { status: 'succeeded' } })
        .mockResolvedValueOnce({
          error: {
            type: 'invalid_request_error',
            message: 'We are unable to authenticate your payment method.',
          },
        }),
    });
    const payments = stripeCardPayments(stripe, () => cardElement);
    const payment = { id: 'pi_1', clientSecret: 'pi_1_secret_x', amount: 25 };
    expect(await payments.confirmPayment(payment)).toEqual({ status: 'succeeded' });
    expect(stripe.confirmCardPayment).toHaveBeenCalledWith('pi_1_secret_x');
    expect(await payments.confirmPayment(payment)).toEqual({
      error: 'We are unable to authenticate your payment method.',
    });
  });
});
