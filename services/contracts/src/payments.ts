import { z } from 'zod';
import { hasForbiddenCharacters, notAllowedMessage } from './text.js';
import { named, schema } from './schema.js';

/** docs/reference.md "Limits and constants": one pound buys one credit; presets and the minimum. */
export const TOPUP_PRESETS = [25, 50, 100, 200] as const;
export const TOPUP_DEFAULT = 25;
export const TOPUP_MIN = 5;
/** The largest top-up in one payment (a typo guard, and a sane ceiling for one card payment). */
export const TOPUP_MAX = 10_000;
export const CURRENCY = 'gbp';

export const PAYMENT_MESSAGES = {
  address: 'Please fill in all required address fields.',
  unexpected: 'An unexpected error occurred during payment processing.',
  processing: 'An error occurred while processing your payment.',
  declined: 'Payment declined. Please try another payment method.',
  cancelled: 'Payment cancelled',
  error: 'Error during payment',
  success: 'Payment successful.',
  fallback: 'Failed to process payment',
  amount: `Amount must be a whole number of pounds from ${TOPUP_MIN} to ${TOPUP_MAX}`,
  paymentMethod: 'A card payment method is required',
} as const;

/**
 * The test gateway's cards (Stripe's test cards and their PaymentMethod ids): what the card field of the test mode
 * turns a card number into, and what the gateway does with it.
 */
export const TEST_CARDS = {
  '4242424242424242': 'pm_card_visa',
  '4000000000000002': 'pm_card_chargeDeclined',
  '4000000000009995': 'pm_card_chargeDeclinedInsufficientFunds',
  '4000002760003184': 'pm_card_threeDSecure2Required',
} as const;

const field = (label: string, max: number) =>
  z
    .string({ error: PAYMENT_MESSAGES.address })
    .trim()
    .min(1, PAYMENT_MESSAGES.address)
    .max(max, `${label} is too long`)
    .refine((value) => !hasForbiddenCharacters(value), notAllowedMessage(label));
const optionalField = (label: string, max: number) =>
  z
    .string()
    .trim()
    .max(max, `${label} is too long`)
    .refine((value) => !hasForbiddenCharacters(value), notAllowedMessage(label))
    .nullish()
    .transform((value) => value || null);

/**
 * billing_info (docs/reference.md "Request and answer bodies"): the address must be complete (line2 and state
 * optional).
 */
export const billingInfoSchema = schema(() =>
  z.object({
    email: z.string().trim().toLowerCase().max(254, 'Email is too long').email('Please enter a valid email address'),
    name: field('Name', 200),
    address: z.object(
      {
        line1: field('Address line 1', 200),
        line2: optionalField('Address line 2', 200),
        city: field('City', 100),
        state: optionalField('County or state', 100),
        postal_code: field('Postal code', 20),
        country: z
          .string({ error: PAYMENT_MESSAGES.address })
          .trim()
          .toUpperCase()
          .regex(/^[A-Z]{2}$/, 'Country must be a two-letter country code'),
      },
      { error: PAYMENT_MESSAGES.address },
    ),
    phone: optionalField('Phone', 40),
  }),
);
export type BillingInfo = z.output<typeof billingInfoSchema>;

/** POST /v1/topup (docs/reference.md "Request and answer bodies"): `payment_id` is the card's PaymentMethod id. */
export const topupRequestSchema = schema(() =>
  z.object({
    payment_id: z
      .string({ error: PAYMENT_MESSAGES.paymentMethod })
      .regex(/^pm_[A-Za-z0-9_]{1,200}$/, PAYMENT_MESSAGES.paymentMethod),
    amount: z
      .number({ error: PAYMENT_MESSAGES.amount })
      .int(PAYMENT_MESSAGES.amount)
      .min(TOPUP_MIN, PAYMENT_MESSAGES.amount)
      .max(TOPUP_MAX, PAYMENT_MESSAGES.amount),
    email: z.string().trim().toLowerCase().max(254, 'Email is too long').email('Please enter a valid email address'),
    billing_info: billingInfoSchema,
  }),
);
export type TopupRequest = z.input<typeof topupRequestSchema>;
export type TopupCommandInput = z.output<typeof topupRequestSchema>;

/** A card payment's state, as the provider names it (docs/reference.md "Card payment states"). */
export const PAYMENT_INTENT_STATUSES = [
  'succeeded',
  'processing',
  'requires_action',
  'requires_confirmation',
  'requires_payment_method',
  'canceled',
] as const;
export type PaymentIntentStatus = (typeof PAYMENT_INTENT_STATUSES)[number];

/** The top-up answer (docs/reference.md "Request and answer bodies"): `success` when the credits are on the balance. */
export const topupResponseSchema = schema(() =>
  named(
    'TopupResponse',
    z.object({
      success: z.boolean(),
      payment_intent_status: z.enum(PAYMENT_INTENT_STATUSES),
      /** What the browser confirms the payment with (3-D Secure); null when the provider gives none. */
      payment_intent_client_secret: z.string().nullable(),
      payment_intent_id: z.string(),
      /** The balance after the credits (when `success`). */
      balance: z.int().optional(),
      /** Credited, but not yet shown everywhere (answered 202): the balance catches up in moments. */
      pending: z.literal(true).optional(),
    }),
  ),
);
export type TopupResponse = z.infer<typeof topupResponseSchema>;

/**
 * A card refused by the bank, as Stripe reports it (`type: 'card_error'`): the browser shows `message`
 * (docs/reference.md "Payment messages": the provider's own message for card_error, validation_error and
 * invalid_request_error).
 */
export interface PaymentErrorBody {
  message: string;
  code: string;
  type: 'card_error' | 'validation_error' | 'invalid_request_error' | 'api_error';
  decline_code?: string;
  statusCode: number;
}

/** GET /v1/payments/config: which card field the browser shows. */
export const paymentsConfigSchema = schema(() =>
  named(
    'PaymentsConfig',
    z.object({
      mode: z.enum(['stripe', 'test']),
      /** Stripe's publishable key (stripe mode). */
      publishable_key: z.string().nullable(),
    }),
  ),
);
export type PaymentsConfig = z.infer<typeof paymentsConfigSchema>;

/** A PaymentIntent's id in a path. */
export const paymentIntentIdParamSchema = schema(() =>
  z.string().regex(/^pi_[A-Za-z0-9_]{1,200}$/, 'Payment id must be a PaymentIntent id'),
);

/** The test gateway's answer to a 3-D Secure step (POST /v1/payments/test/intents/{id}/authenticate). */
export const testAuthenticationSchema = schema(() =>
  z.object({
    client_secret: z.string().max(300),
    outcome: z.enum(['approve', 'fail']),
  }),
);

/** The test gateway's answer to a 3-D Secure step: the payment's state after it. */
export const testAuthenticationResponseSchema = schema(() =>
  named(
    'TestAuthenticationResponse',
    topupResponseSchema.pick({ payment_intent_id: true, payment_intent_status: true }),
  ),
);
export type TestAuthenticationResponse = z.infer<typeof testAuthenticationResponseSchema>;

/**
 * POST /v1/payments/webhook (the payment provider's call): the event was taken; `duplicate` when it had been handled
 * before (nothing done again).
 */
export const paymentWebhookResponseSchema = schema(() =>
  named('PaymentWebhookResponse', z.object({ received: z.literal(true), duplicate: z.literal(true).optional() })),
);
export type PaymentWebhookResponse = z.infer<typeof paymentWebhookResponseSchema>;
