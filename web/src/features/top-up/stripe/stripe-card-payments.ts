import type { PaymentIntentStatus } from '@seatlink/contracts';
import type { Stripe, StripeCardElement } from '@stripe/stripe-js';
import type { CardPayments } from '../top-up.store';
import { providerErrorMessage } from '../top-up';

/** The two calls of Stripe.js the top-up uses. */
export type StripePayments = Pick<Stripe, 'createPaymentMethod' | 'confirmCardPayment'>;

/**
 * Stripe mode's card payments (docs/reference.md "Card payment states", "API calls"): stripe.createPaymentMethod turns
 * the CardElement and the billing details into a PaymentMethod; stripe.confirmCardPayment with the client secret runs
 * 3-D Secure when the server's answer asks for it. Stripe's errors show Stripe's own message for card, validation and
 * invalid-request errors.
 */
export function stripeCardPayments(stripe: StripePayments, card: () => StripeCardElement | null): CardPayments {
  return {
    async createPaymentMethod(billing) {
      const element = card();
      if (!element) return { error: providerErrorMessage({}) };
      const { paymentMethod, error } = await stripe.createPaymentMethod({
        type: 'card',
        card: element,
        billing_details: {
          name: billing.name,
          email: billing.email,
          ...(billing.phone ? { phone: billing.phone } : {}),
          address: {
            line1: billing.address.line1,
            ...(billing.address.line2 ? { line2: billing.address.line2 } : {}),
            city: billing.address.city,
            ...(billing.address.state ? { state: billing.address.state } : {}),
            postal_code: billing.address.postal_code,
            country: billing.address.country,
          },
        },
      });
      if (error) return { error: providerErrorMessage(error) };
      return { id: paymentMethod.id };
    },

    async confirmPayment({ clientSecret }) {
      const { paymentIntent, error } = await stripe.confirmCardPayment(clientSecret);
      if (error) return { error: providerErrorMessage(error) };
      return { status: paymentIntent.status as PaymentIntentStatus };
    },
  };
}
