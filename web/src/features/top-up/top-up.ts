import {
  PAYMENT_MESSAGES,
  TEST_CARDS,
  TOPUP_DEFAULT,
  TOPUP_MAX,
  TOPUP_MIN,
  TOPUP_PRESETS,
  type PaymentIntentStatus,
  type TopupRequest,
} from '@seatlink/contracts';
import { creditsOf, formatCredits, formatGBP } from '../../lib/format';

/** The texts of the Top Up Credits modal (docs/reference.md "Top Up Credits dialog", "Payment messages"). */
export const TOP_UP_TEXTS = {
  title: 'Top Up Credits',
  subtitle: 'Add more credits to your account',
  terms:
    'All credit purchases are final. Credits cannot be withdrawn, transferred or sold for cash. There is no expiry on ' +
    'your credits and they will remain on your account until used. By purchasing credits you agree to these terms ' +
    'and conditions.',
  processing: 'Processing...',
  paid: 'Payment Successful',
  /** Once paid, the one action left: closes the dialog at once. */
  done: 'Done',
  newBalance: 'Your new balance will be',
  /** A card number the test card field does not know. */
  cardIncomplete: 'Your card number is incomplete.',
  unknownTestCard: 'This is not one of the test cards. Use a test card number listed below.',
  /**
   * The payment form could not be set up (GET /v1/payments/config failed): the generic fallback
   * (docs/reference.md "Fallback texts").
   */
  configFailed: 'Something went wrong',
} as const;

/**
 * docs/reference.md "Limits and constants": the success message shows for 6 s; then the user is re-read, the modal
 * closes and the app goes to /.
 */
export const SUCCESS_DELAY_MS = 6_000;

// --- Amount --------------------------------------------------------------------------------------------------------

/** The amount as chosen: a preset tile, and the custom amount box as typed (which wins when it is not empty). */
export interface AmountChoice {
  preset: number;
  custom: string;
}

export const DEFAULT_AMOUNT_CHOICE: AmountChoice = { preset: TOPUP_DEFAULT, custom: '' };
export const AMOUNT_PRESETS: readonly number[] = TOPUP_PRESETS;

/**
 * The amount the custom box names in pounds (what the Pay button and the summary follow), or null when there is none
 * (the custom amount not a number, or not above zero). Whether it may be paid is amountError's to say.
 */
export function amountOf(choice: AmountChoice): number | null {
  const text = choice.custom.trim();
  if (text === '') return choice.preset;
  const value = Number(text);
  return Number.isFinite(value) && value > 0 ? value : null;
}

/**
 * Why the chosen amount cannot be paid, or null when it can. docs/reference.md "Top-up rules", "Limits and constants":
 * the amount input has a minimum of 5 and a step of 1 — whole pounds from £5, since one pound buys one whole credit;
 * the modal refuses anything else before a card is charged, in the words the server uses for the same rule (which also
 * caps one payment).
 */
export function amountError(choice: AmountChoice): string | null {
  const amount = amountOf(choice);
  if (amount === null) return choice.custom.trim() === '' ? null : PAYMENT_MESSAGES.amount;
  return Number.isInteger(amount) && amount >= TOPUP_MIN && amount <= TOPUP_MAX ? null : PAYMENT_MESSAGES.amount;
}

/** '25', '7', '7.50': pounds as the Pay button names them. */
export function formatPounds(amount: number): string {
  return Number.isInteger(amount) ? String(amount) : amount.toFixed(2);
}

/** 'Pay £25' ('Pay £amount', docs/reference.md "Top Up Credits dialog"); just 'Pay' until there is an amount. */
export function payLabel(amount: number | null): string {
  return amount === null ? 'Pay' : `Pay £${formatPounds(amount)}`;
}

/** One credit per pound, a whole number (docs/reference.md "Top Up Credits dialog", "Limits and constants"). */
export function creditsFor(amount: number): number {
  return Math.round(amount);
}

export interface TopUpSummary {
  /** '£25.00' */
  amount: string;
  /** '25' */
  credits: string;
  /** The balance after the credits, with the word: '125 credits' */
  newBalance: string;
}

/**
 * The summary (docs/reference.md "Top Up Credits dialog"): the amount in pounds, its credits, and the current balance
 * plus those credits.
 */
export function summaryOf(amount: number | null, balance: number): TopUpSummary {
  const credits = amount === null ? 0 : creditsFor(amount);
  return {
    amount: formatGBP(amount ?? 0),
    credits: formatCredits(credits),
    newBalance: creditsOf(balance + credits),
  };
}

// --- Billing address -----------------------------------------------------------------------------------------------

/** The billing address form as typed (docs/reference.md "Top Up Credits dialog": split first and last name). */
export interface BillingDraft {
  firstName: string;
  lastName: string;
  line1: string;
  line2: string;
  city: string;
  state: string;
  postalCode: string;
  /** Two-letter country code. */
  country: string;
  email: string;
  phone: string;
}

export type BillingField = keyof BillingDraft;

export const DEFAULT_COUNTRY = 'GB';

/**
 * Everything but line 2, county or state, and phone (billing_info as the server checks it:
 * docs/reference.md "Request and answer bodies").
 */
export const REQUIRED_BILLING_FIELDS: readonly BillingField[] = [
  'firstName',
  'lastName',
  'line1',
  'city',
  'postalCode',
  'country',
  'email',
];

export function emptyBilling(prefill: { email?: string; firstName?: string; lastName?: string } = {}): BillingDraft {
  return {
    firstName: prefill.firstName ?? '',
    lastName: prefill.lastName ?? '',
    line1: '',
    line2: '',
    city: '',
    state: '',
    postalCode: '',
    country: DEFAULT_COUNTRY,
    email: prefill.email ?? '',
    phone: '',
  };
}

/** The required fields left empty (blank counts as empty). */
export function missingBillingFields(draft: BillingDraft): BillingField[] {
  return REQUIRED_BILLING_FIELDS.filter((field) => draft[field].trim() === '');
}

export type BillingInfo = TopupRequest['billing_info'];

/** An address as a card form hands it over (ours in test mode, Stripe's AddressElement in stripe mode). */
export interface BillingAddress {
  firstName: string;
  lastName: string;
  line1: string;
  line2?: string | null;
  city: string;
  state?: string | null;
  postalCode: string;
  country: string;
  phone?: string | null;
}

const optional = (value: string | null | undefined) => value?.trim() || null;

/**
 * billing_info (docs/reference.md "Request and answer bodies"): the name is first and last name joined; empty
 * optional fields are null.
 */
export function billingInfoOf(address: BillingAddress, email: string): BillingInfo {
  return {
    email: email.trim(),
    name: [address.firstName.trim(), address.lastName.trim()].filter(Boolean).join(' '),
    address: {
      line1: address.line1.trim(),
      line2: optional(address.line2),
      city: address.city.trim(),
      state: optional(address.state),
      postal_code: address.postalCode.trim(),
      country: address.country.trim().toUpperCase(),
    },
    phone: optional(address.phone),
  };
}

/** The billing info of a complete draft, or null when a required field is empty (nothing is sent then). */
export function billingInfoFromDraft(draft: BillingDraft): BillingInfo | null {
  return missingBillingFields(draft).length > 0 ? null : billingInfoOf(draft, draft.email);
}

// --- Test card field -----------------------------------------------------------------------------------------------

export type TestCardNumber = keyof typeof TEST_CARDS;

/** The test cards as the test card field lists them: number (grouped in fours) and what it does. */
export const TEST_CARD_LIST: readonly { number: string; behaviour: string }[] = [
  { number: '4242 4242 4242 4242', behaviour: 'succeeds' },
  { number: '4000 0000 0000 0002', behaviour: 'is declined' },
  { number: '4000 0000 0000 9995', behaviour: 'has insufficient funds' },
  { number: '4000 0027 6000 3184', behaviour: 'asks for 3-D Secure' },
];

/** The digits of a card number as typed (spaces and dashes allowed). */
export function cardDigits(text: string): string {
  return text.replace(/[\s-]+/g, '');
}

/** The test gateway's PaymentMethod id for a test card number, or the message to show beside the field. */
export function testPaymentMethodFor(cardNumber: string): { id: string } | { error: string } {
  const digits = cardDigits(cardNumber);
  if (digits === '') return { error: TOP_UP_TEXTS.cardIncomplete };
  const id = (TEST_CARDS as Record<string, string>)[digits];
  return id ? { id } : { error: TOP_UP_TEXTS.unknownTestCard };
}

// --- Outcomes ------------------------------------------------------------------------------------------------------

/** An error the card payment provider's browser library reports (Stripe.js: `{type, message}`). */
export interface ProviderError {
  type?: string;
  message?: string;
}

const PROVIDER_MESSAGE_TYPES = new Set(['card_error', 'validation_error', 'invalid_request_error']);

/**
 * docs/reference.md "Payment messages": the provider's own message for card_error, validation_error and
 * invalid_request_error; any other type gives 'An unexpected error occurred during payment processing.'
 */
export function providerErrorMessage(error: ProviderError): string {
  if (error.type && PROVIDER_MESSAGE_TYPES.has(error.type)) return error.message || PAYMENT_MESSAGES.processing;
  return PAYMENT_MESSAGES.unexpected;
}

/** What a PaymentIntent's status means for the payer (docs/reference.md "Card payment states"). */
export type StatusStep = 'succeeded' | 'confirm' | 'declined' | 'cancelled' | 'failed';

export function stepFor(status: PaymentIntentStatus | string): StatusStep {
  switch (status) {
    case 'succeeded':
      return 'succeeded';
    case 'requires_action':
    case 'requires_confirmation':
      return 'confirm';
    case 'requires_payment_method':
      return 'declined';
    case 'canceled':
      return 'cancelled';
    default:
      return 'failed';
  }
}

/** The message of an unhappy step (docs/reference.md "Payment messages"). */
export function stepMessage(step: Exclude<StatusStep, 'succeeded' | 'confirm'>): string {
  if (step === 'declined') return PAYMENT_MESSAGES.declined;
  if (step === 'cancelled') return PAYMENT_MESSAGES.cancelled;
  return PAYMENT_MESSAGES.processing;
}
