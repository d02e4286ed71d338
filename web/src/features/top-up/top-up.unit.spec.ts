import { describe, expect, it } from 'vitest';
import { PAYMENT_MESSAGES, TEST_CARDS } from '@seatlink/contracts';
import { countryOptions } from './countries';
import {
  amountError,
  amountOf,
  billingInfoFromDraft,
  billingInfoOf,
  cardDigits,
  creditsFor,
  DEFAULT_AMOUNT_CHOICE,
  emptyBilling,
  missingBillingFields,
  payLabel,
  providerErrorMessage,
  stepFor,
  stepMessage,
  summaryOf,
  TEST_CARD_LIST,
  testPaymentMethodFor,
  TOP_UP_TEXTS,
  type BillingDraft,
} from './top-up';

const complete: BillingDraft = {
  firstName: ' Erin ',
  lastName: 'Tester',
  line1: '1 Quay Street',
  line2: '',
  city: 'Bristol',
  state: '  ',
  postalCode: 'BS1 4DJ',
  country: 'GB',
  email: 'erin@example.com',
  phone: '',
};

describe('amount', () => {
  it('defaults to the £25 preset; a custom amount wins while it is not empty', () => {
    expect(amountOf(DEFAULT_AMOUNT_CHOICE)).toBe(25);
    expect(amountOf({ preset: 100, custom: '' })).toBe(100);
    expect(amountOf({ preset: 100, custom: '7' })).toBe(7);
    expect(amountOf({ preset: 100, custom: ' 12.5 ' })).toBe(12.5);
  });

  it('has no amount for a custom value that is not a positive number', () => {
    expect(amountOf({ preset: 25, custom: '0' })).toBeNull();
    expect(amountOf({ preset: 25, custom: '-3' })).toBeNull();
    expect(amountOf({ preset: 25, custom: 'abc' })).toBeNull();
    // Under the minimum or over the maximum it is still the amount named; amountError refuses it.
    expect(amountOf({ preset: 25, custom: '3' })).toBe(3);
    expect(amountOf({ preset: 25, custom: '20000' })).toBe(20000);
  });

  it('refuses amounts below £5, with pennies, over the maximum, or no amount at all, as the server does', () => {
    for (const custom of ['4.99', '4', '5.50', '5.01', '0', '-5', 'abc', '10001'])
      expect(amountError({ preset: 25, custom })).toBe(PAYMENT_MESSAGES.amount);
    expect(PAYMENT_MESSAGES.amount).toBe('Amount must be a whole number of pounds from 5 to 10000');
  });

  it('takes every preset and whole pounds from £5 to the maximum', () => {
    expect(amountError(DEFAULT_AMOUNT_CHOICE)).toBeNull();
    for (const preset of [25, 50, 100, 200]) expect(amountError({ preset, custom: '' })).toBeNull();
    for (const custom of ['5', ' 7 ', '5.00', '10000']) expect(amountError({ preset: 25, custom })).toBeNull();
  });

  it("names the Pay button 'Pay £amount'", () => {
    expect(payLabel(25)).toBe('Pay £25');
    expect(payLabel(7)).toBe('Pay £7');
    expect(payLabel(7.5)).toBe('Pay £7.50');
    expect(payLabel(null)).toBe('Pay');
  });

  it('sums up one credit per pound, rounded, on top of the balance', () => {
    expect(creditsFor(25)).toBe(25);
    expect(creditsFor(7.6)).toBe(8);
    expect(summaryOf(25, 100)).toEqual({ amount: '£25.00', credits: '25', newBalance: '125 credits' });
    expect(summaryOf(1000, 1250)).toEqual({ amount: '£1,000.00', credits: '1,000', newBalance: '2,250 credits' });
    expect(summaryOf(null, 40)).toEqual({ amount: '£0.00', credits: '0', newBalance: '40 credits' });
  });
});

describe('billing address', () => {
  it('starts with Great Britain and the user’s e-mail and name', () => {
    expect(emptyBilling({ email: 'u@seatlink.test', firstName: 'Uma', lastName: 'User' })).toMatchObject({
      email: 'u@seatlink.test',
      firstName: 'Uma',
      lastName: 'User',
      country: 'GB',
      line1: '',
    });
  });

  it('needs everything but line 2, county or state and phone', () => {
    expect(missingBillingFields(complete)).toEqual([]);
    expect(missingBillingFields(emptyBilling())).toEqual([
      'firstName',
      'lastName',
      'line1',
      'city',
      'postalCode',
      'email',
    ]);
    expect(missingBillingFields({ ...complete, city: '   ' })).toEqual(['city']);
    expect(billingInfoFromDraft({ ...complete, postalCode: '' })).toBeNull();
  });

  it('joins first and last name, trims, and sends empty optional fields as null', () => {
    expect(billingInfoFromDraft(complete)).toEqual({
      email: 'erin@example.com',
      name: 'Erin Tester',
      address: {
        line1: '1 Quay Street',
        line2: null,
        city: 'Bristol',
        state: null,
        postal_code: 'BS1 4DJ',
        country: 'GB',
      },
      phone: null,
    });
    expect(
      billingInfoOf(
        { ...complete, line2: 'Flat 2', state: 'Avon', country: 'gb', phone: '+44 117 000 0000' },
        ' erin@example.com ',
      ),
    ).toMatchObject({
      email: 'erin@example.com',
      address: { line2: 'Flat 2', state: 'Avon', country: 'GB' },
      phone: '+44 117 000 0000',
    });
  });

  it('offers every country by name, Great Britain among them', () => {
    const options = countryOptions();
    expect(options).toHaveLength(249);
    expect(options.find((o) => o.code === 'GB')?.name).toBe('United Kingdom');
    expect(options.every((o) => /^[A-Z]{2}$/.test(o.code))).toBe(true);
  });
});

describe('test card field', () => {
  it('turns each listed test card (spaces allowed) into its PaymentMethod id', () => {
    for (const { number } of TEST_CARD_LIST) {
      const digits = cardDigits(number) as keyof typeof TEST_CARDS;
      expect(testPaymentMethodFor(number)).toEqual({ id: TEST_CARDS[digits] });
    }
    expect(testPaymentMethodFor('4242424242424242')).toEqual({ id: 'pm_card_visa' });
    expect(testPaymentMethodFor(' 4000-0027-6000-3184 ')).toEqual({ id: 'pm_card_threeDSecure2Required' });
  });

  it('refuses an empty or unknown number with a message beside the field', () => {
    expect(testPaymentMethodFor('')).toEqual({ error: TOP_UP_TEXTS.cardIncomplete });
    expect(testPaymentMethodFor('5555 5555 5555 4444')).toEqual({ error: TOP_UP_TEXTS.unknownTestCard });
  });
});

describe('outcomes', () => {
  it('decides by the PaymentIntent status (docs/reference.md#card-payment-states)', () => {
    expect(stepFor('succeeded')).toBe('succeeded');
    expect(stepFor('requires_action')).toBe('confirm');
    expect(stepFor('requires_confirmation')).toBe('confirm');
    expect(stepFor('requires_payment_method')).toBe('declined');
    expect(stepFor('canceled')).toBe('cancelled');
    expect(stepFor('processing')).toBe('failed');
    expect(stepMessage('declined')).toBe('Payment declined. Please try another payment method.');
    expect(stepMessage('cancelled')).toBe('Payment cancelled');
    expect(stepMessage('failed')).toBe('An error occurred while processing your payment.');
  });

  it("shows the provider's message for card, validation and invalid-request errors only (docs/reference.md#payment-messages)", () => {
    expect(providerErrorMessage({ type: 'card_error', message: 'Your card was declined.' })).toBe(
      'Your card was declined.',
    );
    expect(providerErrorMessage({ type: 'validation_error', message: 'Your card number is incomplete.' })).toBe(
      'Your card number is incomplete.',
    );
    expect(providerErrorMessage({ type: 'invalid_request_error', message: 'No such PaymentIntent' })).toBe(
      'No such PaymentIntent',
    );
    expect(providerErrorMessage({ type: 'api_error', message: 'Internal' })).toBe(PAYMENT_MESSAGES.unexpected);
    expect(providerErrorMessage({})).toBe('An unexpected error occurred during payment processing.');
  });
});
