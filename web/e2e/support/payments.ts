import path from 'node:path';
import { expect, type Locator, type Page } from '@playwright/test';
import type { User } from '@seatlink/contracts';

/**
 * Stripe's test cards, as the test gateway knows them (the test mode's card field:
 * docs/reference.md "Top Up Credits dialog").
 */
export const TEST_CARD = {
  visa: '4242 4242 4242 4242',
  declined: '4000 0000 0000 0002',
  insufficientFunds: '4000 0000 0000 9995',
  threeDSecure: '4000 0027 6000 3184',
} as const;

export interface BillingAddressInput {
  line1: string;
  city: string;
  postalCode: string;
  line2?: string;
  state?: string;
  phone?: string;
}

export const A_BILLING_ADDRESS: BillingAddressInput = {
  line1: '1 Quay Street',
  city: 'Bristol',
  postalCode: 'BS1 4DJ',
};

/** The open Top Up Credits modal. */
export function topUpModal(page: Page): Locator {
  return page.getByRole('dialog', { name: 'Top Up Credits' });
}

/** Opens the Top Up Credits modal from the Tickets Overview and waits for its card field. */
export async function openTopUp(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: 'Top Up' }).click();
  const modal = topUpModal(page);
  await expect(modal).toBeVisible();
  await expect(modal.getByLabel('Card number (test mode)')).toBeVisible();
  return modal;
}

/** Fills in the billing address (names and e-mail come prefilled from the user) and the card number. */
export async function fillPayment(modal: Locator, card: string, address: BillingAddressInput = A_BILLING_ADDRESS) {
  await modal.getByLabel('Address line 1').fill(address.line1);
  if (address.line2) await modal.getByLabel('Address line 2 (optional)').fill(address.line2);
  await modal.getByLabel('City').fill(address.city);
  if (address.state) await modal.getByLabel('County / State (optional)').fill(address.state);
  await modal.getByLabel('Postal code').fill(address.postalCode);
  if (address.phone) await modal.getByLabel('Phone (optional)').fill(address.phone);
  await fillCard(modal, card);
}

export async function fillCard(modal: Locator, card: string) {
  await modal.getByLabel('Card number (test mode)').fill(card);
  await modal.getByLabel('Expiry').fill('12 / 34');
  await modal.getByLabel('CVC').fill('123');
}

/** The signed-in user's balance as the server has it. */
export async function serverBalance(page: Page): Promise<number> {
  const response = await page.request.get('/v1/me');
  expect(response.status()).toBe(200);
  return ((await response.json()) as User).balance;
}

/** The Available Credits figure as a number ('1,250' → 1250). */
export async function shownBalance(page: Page): Promise<number> {
  return Number((await page.getByTestId('available-credits').textContent())?.replace(/,/g, ''));
}

/** Counts POST /v1/topup requests the page sends from now on. */
export function countTopUpRequests(page: Page): { readonly count: number } {
  const counter = { count: 0 };
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname.startsWith('/v1/topup')) counter.count++;
  });
  return counter;
}

/** Whether the page scrolls sideways (it must not, at any width). */
export async function scrollsSideways(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const root = document.scrollingElement ?? document.documentElement;
    // An open dialog, and the layer it scrolls in (its parent's parent: the overlay, past the modal's wrapper).
    const dialogs = [...document.querySelectorAll<HTMLElement>('[role="dialog"], [role="alertdialog"]')];
    const boxes = dialogs.flatMap((d) => [d, d.parentElement?.parentElement ?? d]);
    return root.scrollWidth > root.clientWidth + 1 || boxes.some((d) => d.scrollWidth > d.clientWidth + 1);
  });
}

/**
 * Saves a screenshot of what the page shows when E2E_SCREENSHOTS names a folder (for looking at the screens by eye);
 * does nothing otherwise.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  const dir = process.env.E2E_SCREENSHOTS;
  if (!dir) return;
  await page.evaluate(() =>
    Promise.allSettled(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().iterations !== Infinity)
        .map((animation) => animation.finished),
    ),
  );
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: false });
}

/** What the stand-in for Stripe.js saw: the Elements made, and the calls of the card payment. */
export interface FakeStripeRecord {
  publishableKey: string;
  created: { type: string; options: Record<string, unknown> }[];
  createPaymentMethod: { type: string; billing_details: Record<string, unknown> }[];
  confirmCardPayment: string[];
}

/**
 * Stripe mode without Stripe: GET /v1/payments/config answers stripe mode, and js.stripe.com serves a small stand-in
 * for Stripe.js. Its Elements are plain inputs (an address with first and last name, a card number); its
 * createPaymentMethod turns Stripe's test card numbers into the test gateway's PaymentMethod ids, and its
 * confirmCardPayment approves the 3-D Secure step at the test gateway, as a payer on Stripe's page would. The server
 * under test stays in test mode; only the browser side of stripe mode is exercised (react-stripe-js, the lazy chunk,
 * the Content-Security-Policy for js.stripe.com).
 */
export async function useFakeStripe(page: Page): Promise<{ record(): Promise<FakeStripeRecord> }> {
  await page.route('**/v1/payments/config', (route) =>
    route.fulfill({ json: { mode: 'stripe', publishable_key: 'pk_test_e2e' } }),
  );
  await page.route('https://js.stripe.com/**', (route) =>
    route.fulfill({ contentType: 'text/javascript', body: `(${fakeStripeJs.toString()})();` }),
  );
  return {
    record: () => page.evaluate(() => (window as unknown as { __fakeStripe: FakeStripeRecord }).__fakeStripe),
  };
}

/** Runs in the page (serialised): defines window.Stripe. */
function fakeStripeJs() {
  const record = {
    publishableKey: '',
    created: [] as { type: string; options: Record<string, unknown> }[],
    createPaymentMethod: [] as unknown[],
    confirmCardPayment: [] as string[],
  };
  (window as unknown as { __fakeStripe: unknown }).__fakeStripe = record;
  const cards: Record<string, string> = {
    '4242424242424242': 'pm_card_visa',
    '4000000000000002': 'pm_card_chargeDeclined',
    '4000002760003184': 'pm_card_threeDSecure2Required',
  };

  type Listener = (event: unknown) => void;
  function makeElement(type: string, options: Record<string, unknown>) {
    const listeners: Record<string, Listener[]> = {};
    const inputs: Record<string, HTMLInputElement> = {};
    const emit = (name: string, event: unknown) => (listeners[name] ?? []).forEach((listener) => listener(event));
    const field = (root: HTMLElement, key: string, label: string, value = '') => {
      const input = document.createElement('input');
      input.setAttribute('aria-label', label);
      input.value = value;
      input.style.cssText =
        'display:block;width:100%;margin:4px 0;padding:6px;border:1px solid #cbd5e1;border-radius:6px';
      root.appendChild(input);
      inputs[key] = input;
      return input;
    };
    const defaults = (options.defaultValues ?? {}) as Record<string, unknown> & {
      address?: Record<string, string>;
    };
    const addressValue = () => {
      const v = (key: string) => inputs[key]?.value.trim() ?? '';
      return {
        complete: ['firstName', 'lastName', 'line1', 'city', 'postal_code', 'country'].every((key) => v(key) !== ''),
        isNewAddress: true,
        value: {
          name: `${v('firstName')} ${v('lastName')}`.trim(),
          firstName: v('firstName'),
          lastName: v('lastName'),
          address: {
            line1: v('line1'),
            line2: null,
            city: v('city'),
            state: '',
            postal_code: v('postal_code'),
            country: v('country'),
          },
          phone: v('phone'),
        },
      };
    };
    const element = {
      type,
      digits: () => (inputs.number?.value ?? '').replace(/\s+/g, ''),
      mount(node: HTMLElement) {
        if (type === 'card') {
          field(node, 'number', 'Stand-in card number').addEventListener('input', () => {
            const digits = element.digits();
            emit('change', { elementType: 'card', complete: digits.length >= 16, empty: digits === '' });
          });
        } else {
          field(node, 'firstName', 'Stand-in first name', String(defaults.firstName ?? ''));
          field(node, 'lastName', 'Stand-in last name', String(defaults.lastName ?? ''));
          field(node, 'line1', 'Stand-in address line 1');
          field(node, 'city', 'Stand-in city');
          field(node, 'postal_code', 'Stand-in postal code');
          field(node, 'country', 'Stand-in country', defaults.address?.country ?? '');
          field(node, 'phone', 'Stand-in phone');
        }
        setTimeout(() => emit('ready', element), 0);
      },
      on(name: string, listener: Listener) {
        (listeners[name] ??= []).push(listener);
        return element;
      },
      off(name: string, listener: Listener) {
        listeners[name] = (listeners[name] ?? []).filter((l) => l !== listener);
        return element;
      },
      update() {},
      destroy() {},
      unmount() {},
      focus() {
        Object.values(inputs)[0]?.focus();
      },
      async getValue() {
        return addressValue();
      },
    };
    return element;
  }

  function Stripe(publishableKey: string) {
    record.publishableKey = publishableKey;
    const made: Record<string, ReturnType<typeof makeElement>> = {};
    return {
      elements() {
        return {
          create(type: string, options: Record<string, unknown>) {
            record.created.push({ type, options });
            return (made[type] = makeElement(type, options ?? {}));
          },
          getElement(which: string | { __elementType?: string }) {
            return made[typeof which === 'string' ? which : (which.__elementType ?? '')] ?? null;
          },
          update() {},
        };
      },
      async createToken() {
        return { error: { type: 'invalid_request_error', message: 'Not in the stand-in' } };
      },
      async createPaymentMethod(data: { type: string; card: { digits(): string }; billing_details: unknown }) {
        record.createPaymentMethod.push({ type: data.type, billing_details: data.billing_details });
        const id = cards[data.card.digits()];
        if (!id) return { error: { type: 'validation_error', message: 'Your card number is invalid.' } };
        return { paymentMethod: { id } };
      },
      async confirmCardPayment(clientSecret: string) {
        record.confirmCardPayment.push(clientSecret);
        const id = clientSecret.split('_secret_')[0];
        const response = await fetch(`/v1/payments/test/intents/${id}/authenticate`, {
          method: 'POST',
          credentials: 'include',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ client_secret: clientSecret, outcome: 'approve' }),
        });
        const body = (await response.json()) as { payment_intent_status: string; message?: string };
        if (!response.ok) return { error: { type: 'invalid_request_error', message: body.message } };
        return { paymentIntent: { id, status: body.payment_intent_status } };
      },
      registerAppInfo() {},
      _registerWrapper() {},
    };
  }
  Stripe.version = 'endive';
  (window as unknown as { Stripe: unknown }).Stripe = Stripe;
}
