import { expect, test, type Page } from '@playwright/test';
import { expectNoA11yViolations } from './support/axe';
import {
  countTopUpRequests,
  fillCard,
  fillPayment,
  openTopUp,
  screenshot,
  scrollsSideways,
  serverBalance,
  shownBalance,
  TEST_CARD,
  topUpModal,
  useFakeStripe,
} from './support/payments';
import { createVerifiedUser, signIn } from './support/session';

/**
 * The Top Up Credits modal (docs/reference.md "Top Up Credits dialog", "Card payment states", "Payment messages")
 * against the test gateway, which follows Stripe's test cards. Every test that pays signs in a user of its own, so
 * balances start where the test expects.
 */

const TERMS =
  'All credit purchases are final. Credits cannot be withdrawn, transferred or sold for cash. There is no expiry on ' +
  'your credits and they will remain on your account until used. By purchasing credits you agree to these terms and ' +
  'conditions.';

async function signInFresh(page: Page, name: string) {
  const user = await createVerifiedUser(page, name);
  await signIn(page, user);
  return user;
}

test('pays £25 with the Visa test card: Payment Successful, 25 more credits, then back to the dashboard', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 1700 });
  const user = await signInFresh(page, 'topup-visa');
  const before = await serverBalance(page);
  await expect(page.getByTestId('available-credits')).toHaveText(String(before));
  // Test mode never fetches Stripe.js.
  const stripeRequests: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).hostname.endsWith('stripe.com')) stripeRequests.push(request.url());
  });

  const modal = await openTopUp(page);
  await expect(modal.getByRole('heading', { name: 'Top Up Credits' })).toBeVisible();
  await expect(modal.getByText('Add more credits to your account')).toBeVisible();
  for (const preset of ['£25', '£50', '£100', '£200']) await expect(modal.getByLabel(preset)).toBeVisible();
  await expect(modal.getByLabel('£25')).toBeChecked();
  await expect(modal.getByTestId('top-up-terms')).toHaveText(TERMS);
  await expect(modal.getByTestId('summary-amount')).toHaveText('£25.00');
  await expect(modal.getByTestId('summary-credits')).toHaveText('25');
  await expect(modal.getByTestId('summary-new-balance')).toHaveText(`${before + 25} credits`);
  await expect(modal.getByText('Your new balance will be')).toBeVisible();
  await expect(modal.getByLabel('Email')).toHaveValue(user.email);
  await expect(modal.getByLabel('First name')).toHaveValue(user.firstName);
  await expect(modal.getByLabel('Last name')).toHaveValue(user.lastName);
  await expect(modal.getByLabel('Country')).toHaveValue('GB');
  await expect(modal.getByRole('button', { name: 'Pay £25' })).toBeEnabled();
  await expectNoA11yViolations(page, 'top-up modal');
  await screenshot(page, 'topup-1280-empty');

  await fillPayment(modal, TEST_CARD.visa);
  await screenshot(page, 'topup-1280-filled');
  const paths: string[] = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) paths.push(new URL(frame.url()).pathname);
  });
  await modal.getByRole('button', { name: 'Pay £25' }).click();

  await expect(modal.getByTestId('top-up-paid')).toHaveText('Payment Successful');
  await expect(modal.getByTestId('top-up-success')).toHaveText('Payment successful.');
  await expect(modal.getByTestId('summary-new-balance')).toHaveText(`${before + 25} credits`);
  await expect(page.getByTestId('available-credits')).toHaveText(String(before + 25));
  expect(await serverBalance(page)).toBe(before + 25);
  await expectNoA11yViolations(page, 'top-up modal, paid');
  await screenshot(page, 'topup-1280-success');

  // 'Payment successful.' for 6 s; then the modal closes and the app goes to / (which is the dashboard).
  await expect(modal).toBeHidden({ timeout: 9_000 });
  expect(paths).toContain('/');
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId('available-credits')).toHaveText(String(before + 25));
  // Once, not twice: the synchronous answer and the webhook credit one payment once.
  await page.waitForTimeout(500);
  expect(await serverBalance(page)).toBe(before + 25);
  expect(stripeRequests).toEqual([]);
});

test('once paid the only action is Done, which closes the modal at once and goes to the dashboard', async ({
  page,
}) => {
  // The page's clock is Playwright's, so the success delay can be held: the modal then closes by Done or not at all.
  await page.clock.install();
  await signInFresh(page, 'topup-done');
  const before = await serverBalance(page);
  const modal = await openTopUp(page);
  const footer = modal.getByTestId('top-up-footer');
  // Before paying: Cancel and Pay.
  await expect(footer.getByRole('button')).toHaveText(['Cancel', 'Pay £25']);
  await fillPayment(modal, TEST_CARD.visa);
  await modal.getByRole('button', { name: 'Pay £25' }).click();
  await expect(modal.getByTestId('top-up-paid')).toHaveText('Payment Successful');
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000);

  // Paid: no Cancel, no Pay; Done alone, and it has the focus.
  await expect(footer.getByRole('button')).toHaveText(['Done']);
  await expect(modal.getByRole('button', { name: 'Cancel' })).toHaveCount(0);
  await expect(modal.getByTestId('pay-button')).toHaveCount(0);
  await expect(modal.getByTestId('top-up-success')).toHaveText('Payment successful.');
  await expect(modal.getByRole('button', { name: 'Done' })).toBeFocused();
  expect(await serverBalance(page)).toBe(before + 25);
  // (Axe is not run here: it waits on timers, and this page's clock is held. The Visa test runs it on the paid modal.)
  await screenshot(page, 'topup-1280-success-done');

  await modal.getByRole('button', { name: 'Done' }).click();
  // Closed with the clock still held: by Done, not by the end of the success delay.
  await expect(modal).toBeHidden();
  await page.clock.resume();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId('available-credits')).toHaveText(String(before + 25));
});

test('a declined card shows the bank’s message, and so does one without funds; the balance stays', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 1700 });
  await signInFresh(page, 'topup-declined');
  const before = await serverBalance(page);
  const modal = await openTopUp(page);

  await fillPayment(modal, TEST_CARD.declined);
  await modal.getByRole('button', { name: 'Pay £25' }).click();
  await expect(modal.getByTestId('top-up-error')).toHaveText('Your card was declined.');
  await expect(modal.getByRole('button', { name: 'Pay £25' })).toBeEnabled();
  await expectNoA11yViolations(page, 'top-up modal, declined');
  await screenshot(page, 'topup-1280-declined');

  await fillCard(modal, TEST_CARD.insufficientFunds);
  await modal.getByRole('button', { name: 'Pay £25' }).click();
  await expect(modal.getByTestId('top-up-error')).toHaveText('Your card has insufficient funds.');

  expect(await serverBalance(page)).toBe(before);
  await expect(page.getByTestId('available-credits')).toHaveText(String(before));
  await expect(modal.getByTestId('summary-new-balance')).toHaveText(`${before + 25} credits`);
});

test('a card that needs 3-D Secure: the test challenge, completed, pays', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 1700 });
  await signInFresh(page, 'topup-3ds-ok');
  const before = await serverBalance(page);
  const modal = await openTopUp(page);
  await modal.getByLabel('£50').check({ force: true });
  await fillPayment(modal, TEST_CARD.threeDSecure);
  await modal.getByRole('button', { name: 'Pay £50' }).click();

  const challenge = page.getByRole('dialog', { name: '3-D Secure' });
  await expect(challenge).toBeVisible();
  await expect(challenge).toContainText('£50.00');
  await expect(modal.getByTestId('pay-button')).toHaveText('Processing...');
  await expect(challenge.getByRole('button', { name: 'Complete authentication' })).toBeFocused();
  await expectNoA11yViolations(page, '3-D Secure challenge');
  await screenshot(page, 'topup-1280-challenge');

  await challenge.getByRole('button', { name: 'Complete authentication' }).click();
  await expect(challenge).toBeHidden();
  await expect(modal.getByTestId('top-up-paid')).toHaveText('Payment Successful');
  await expect(modal.getByTestId('top-up-success')).toHaveText('Payment successful.');
  await expect(page.getByTestId('available-credits')).toHaveText(String(before + 50));
  expect(await serverBalance(page)).toBe(before + 50);
});

test('a card that needs 3-D Secure: the test challenge, failed, is a decline', async ({ page }) => {
  await signInFresh(page, 'topup-3ds-fail');
  const before = await serverBalance(page);
  const modal = await openTopUp(page);
  await fillPayment(modal, TEST_CARD.threeDSecure);
  await modal.getByRole('button', { name: 'Pay £25' }).click();

  const challenge = page.getByRole('dialog', { name: '3-D Secure' });
  await challenge.getByRole('button', { name: 'Fail authentication' }).click();
  await expect(challenge).toBeHidden();
  await expect(modal.getByTestId('top-up-error')).toHaveText('Payment declined. Please try another payment method.');
  await expect(modal.getByRole('button', { name: 'Pay £25' })).toBeEnabled();
  expect(await serverBalance(page)).toBe(before);

  // Escape on the challenge fails it too.
  await modal.getByRole('button', { name: 'Pay £25' }).click();
  await expect(challenge).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(challenge).toBeHidden();
  await expect(modal).toBeVisible();
  await expect(modal.getByTestId('top-up-error')).toHaveText('Payment declined. Please try another payment method.');
  expect(await serverBalance(page)).toBe(before);
});

test('an incomplete address or an unknown card sends nothing', async ({ page }) => {
  await signInFresh(page, 'topup-incomplete');
  const modal = await openTopUp(page);
  const sent = countTopUpRequests(page);

  await fillCard(modal, TEST_CARD.visa);
  await modal.getByRole('button', { name: 'Pay £25' }).click();
  await expect(modal.getByTestId('top-up-error')).toHaveText('Please fill in all required address fields.');
  await expect(modal.getByLabel('Address line 1')).toHaveAttribute('aria-invalid', 'true');
  await expect(modal.getByLabel('Address line 1')).toBeFocused();
  await expect(modal.getByLabel('Address line 2 (optional)')).not.toHaveAttribute('aria-invalid', 'true');
  await screenshot(page, 'topup-1280-incomplete');

  await fillPayment(modal, '1234 5678 9012 3456');
  await modal.getByRole('button', { name: 'Pay £25' }).click();
  await expect(modal.getByTestId('card-error')).toHaveText(
    'This is not one of the test cards. Use a test card number listed below.',
  );
  await expect(modal.getByLabel('Card number (test mode)')).toBeFocused();
  await expect(modal.getByTestId('top-up-error')).toBeHidden();
  await page.waitForTimeout(300);
  expect(sent.count).toBe(0);
});

test('a custom amount: the button and summary follow it; under £5 or with pennies it is refused in the modal', async ({
  page,
}) => {
  await signInFresh(page, 'topup-custom');
  const before = await serverBalance(page);
  const modal = await openTopUp(page);
  const sent = countTopUpRequests(page);

  const custom = modal.getByLabel('Custom amount (£)');
  await expect(custom).toHaveAttribute('min', '5');
  await expect(custom).toHaveAttribute('step', '1');
  await custom.fill('7');
  await expect(modal.getByLabel('£25')).not.toBeChecked();
  await expect(modal.getByRole('button', { name: 'Pay £7' })).toBeVisible();
  await expect(modal.getByTestId('summary-amount')).toHaveText('£7.00');
  await expect(modal.getByTestId('summary-credits')).toHaveText('7');
  await expect(modal.getByTestId('summary-new-balance')).toHaveText(`${before + 7} credits`);

  // docs/reference.md "Top-up rules", "Limits and constants": minimum 5, step 1 (whole credits). Below £5 or with
  // pennies, Pay names no amount, the field says why once it is left or paid with, and nothing is sent; the card and
  // address are never looked at.
  const refusal = modal.getByTestId('custom-amount-error');
  await fillPayment(modal, TEST_CARD.visa);
  for (const amount of ['4.99', '5.50', '3']) {
    await custom.fill(amount);
    await expect(modal.getByTestId('pay-button')).toHaveText('Pay');
    await expect(modal.getByTestId('summary-amount')).toHaveText('£0.00');
    await modal.getByTestId('pay-button').click();
    await expect(refusal).toHaveText('Amount must be a whole number of pounds from 5 to 10000');
    await expect(custom).toHaveAttribute('aria-invalid', 'true');
    await expect(custom).toBeFocused();
  }
  await expectNoA11yViolations(page, 'top-up modal, amount refused');
  await custom.fill('5.5');
  await custom.blur();
  await expect(refusal).toBeVisible();
  await custom.fill('5');
  await expect(refusal).toHaveCount(0);
  await expect(modal.getByRole('button', { name: 'Pay £5' })).toBeVisible();
  await page.waitForTimeout(300);
  expect(sent.count).toBe(0);
  expect(await serverBalance(page)).toBe(before);

  await custom.fill('7');
  await modal.getByRole('button', { name: 'Pay £7' }).click();
  await expect(modal.getByTestId('top-up-paid')).toHaveText('Payment Successful');
  await expect(page.getByTestId('available-credits')).toHaveText(String(before + 7));
  expect(sent.count).toBe(1);

  // Emptied, the preset counts again.
  await expect(modal).toBeHidden({ timeout: 9_000 });
  const again = await openTopUp(page);
  await again.getByLabel('Custom amount (£)').fill('12');
  await again.getByLabel('Custom amount (£)').fill('');
  await expect(again.getByLabel('£25')).toBeChecked();
  await expect(again.getByRole('button', { name: 'Pay £25' })).toBeVisible();
});

test('the backdrop, Escape and Cancel close the modal, and the focus goes back to Top Up', async ({ page }) => {
  await signInFresh(page, 'topup-close');
  const topUp = page.getByRole('button', { name: 'Top Up' });

  await openTopUp(page);
  const box = await topUpModal(page).boundingBox();
  expect(box).not.toBeNull();
  // A point of the backdrop: left of the modal.
  await page.mouse.click(Math.max(2, box!.x / 2), box!.y + 40);
  await expect(topUpModal(page)).toBeHidden();
  await expect(topUp).toBeFocused();

  await openTopUp(page);
  await page.keyboard.press('Escape');
  await expect(topUpModal(page)).toBeHidden();
  await expect(topUp).toBeFocused();

  const modal = await openTopUp(page);
  await modal.getByRole('button', { name: 'Cancel' }).click();
  await expect(topUpModal(page)).toBeHidden();
  await expect(topUp).toBeFocused();

  // A click inside the modal keeps it open.
  const reopened = await openTopUp(page);
  await reopened.getByText('Add more credits to your account').click();
  await expect(reopened).toBeVisible();
});

test('another open dashboard of the same user shows the new balance live, without a reload', async ({ browser }) => {
  const payerContext = await browser.newContext();
  const watcherContext = await browser.newContext();
  try {
    const payer = await payerContext.newPage();
    const watcher = await watcherContext.newPage();
    const user = await signInFresh(payer, 'topup-live');
    await signIn(watcher, user);
    const before = await shownBalance(watcher);
    let reloaded = false;
    watcher.on('framenavigated', (frame) => {
      if (frame === watcher.mainFrame()) reloaded = true;
    });

    const modal = await openTopUp(payer);
    await modal.getByLabel('£100').check({ force: true });
    await fillPayment(modal, TEST_CARD.visa);
    await modal.getByRole('button', { name: 'Pay £100' }).click();
    await expect(modal.getByTestId('top-up-paid')).toHaveText('Payment Successful');

    await expect(watcher.getByTestId('available-credits')).toHaveText(String(before + 100));
    expect(reloaded).toBe(false);
  } finally {
    await payerContext.close();
    await watcherContext.close();
  }
});

test('fits a 375 px phone without sideways scrolling; the card comes first and Pay stays in view', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 812 });
  await signInFresh(page, 'topup-phone');
  const modal = await openTopUp(page);
  expect(await scrollsSideways(page)).toBe(false);
  // The card's fields come before the billing address.
  const cardBox = await modal.getByLabel('Card number (test mode)').boundingBox();
  const addressBox = await modal.getByLabel('Address line 1').boundingBox();
  expect(cardBox!.y).toBeLessThan(addressBox!.y);
  // Pay is on the first screen, and still there with the modal scrolled to the terms at its end.
  const pay = modal.getByTestId('pay-button');
  await expect(pay).toBeInViewport({ ratio: 1 });
  await modal.getByLabel('Address line 1').scrollIntoViewIfNeeded();
  await expect(pay).toBeInViewport({ ratio: 1 });
  await modal.getByTestId('top-up-terms').scrollIntoViewIfNeeded();
  await expect(pay).toBeInViewport({ ratio: 1 });
  await expect(modal.getByRole('button', { name: 'Cancel' })).toBeInViewport({ ratio: 1 });
  await screenshot(page, 'topup-375-empty');
  await expectNoA11yViolations(page, 'top-up modal, 375 px');

  await fillPayment(modal, TEST_CARD.declined);
  await modal.getByRole('button', { name: 'Pay £25' }).click();
  await expect(modal.getByTestId('top-up-error')).toHaveText('Your card was declined.');
  expect(await scrollsSideways(page)).toBe(false);
  await screenshot(page, 'topup-375-declined');

  // The whole modal, for the eye: a tall phone.
  await page.setViewportSize({ width: 375, height: 2000 });
  await screenshot(page, 'topup-375-full');
  expect(await scrollsSideways(page)).toBe(false);

  await page.setViewportSize({ width: 375, height: 812 });
  await fillCard(modal, TEST_CARD.threeDSecure);
  await modal.getByRole('button', { name: 'Pay £25' }).click();
  const challenge = page.getByRole('dialog', { name: '3-D Secure' });
  await expect(challenge).toBeVisible();
  expect(await scrollsSideways(page)).toBe(false);
  await screenshot(page, 'topup-375-challenge');
  await challenge.getByRole('button', { name: 'Complete authentication' }).click();
  await expect(modal.getByTestId('top-up-paid')).toHaveText('Payment Successful');
  await screenshot(page, 'topup-375-success');
});

test('stripe mode: Stripe’s address and card Elements, a PaymentMethod, and confirmCardPayment for 3-D Secure', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 1700 });
  const user = await signInFresh(page, 'topup-stripe');
  const before = await serverBalance(page);
  const stripe = await useFakeStripe(page);

  await page.getByRole('button', { name: 'Top Up' }).click();
  const modal = topUpModal(page);
  await expect(modal.getByLabel('Stand-in card number')).toBeVisible();
  await expect(modal.getByLabel('Card number (test mode)')).toHaveCount(0);
  const { publishableKey, created } = await stripe.record();
  expect(publishableKey).toBe('pk_test_e2e');
  expect(created.map((c) => c.type).sort()).toEqual(['address', 'card']);
  expect(created.find((c) => c.type === 'address')?.options).toMatchObject({
    mode: 'billing',
    autocomplete: { mode: 'automatic' },
    display: { name: 'split' },
    defaultValues: { firstName: user.firstName, lastName: user.lastName, address: { country: 'GB' } },
  });
  expect(created.find((c) => c.type === 'card')?.options).toMatchObject({ hidePostalCode: true });
  await expect(modal.getByLabel('Email')).toHaveValue(user.email);
  await screenshot(page, 'topup-1280-stripe-mode');

  // Incomplete: nothing reaches Stripe or the server.
  await modal.getByRole('button', { name: 'Pay £25' }).click();
  await expect(modal.getByTestId('top-up-error')).toHaveText('Please fill in all required address fields.');
  expect((await stripe.record()).createPaymentMethod).toEqual([]);

  await modal.getByLabel('Stand-in address line 1').fill('1 Quay Street');
  await modal.getByLabel('Stand-in city').fill('Bristol');
  await modal.getByLabel('Stand-in postal code').fill('BS1 4DJ');
  await modal.getByLabel('Stand-in card number').fill(TEST_CARD.threeDSecure);
  await modal.getByRole('button', { name: 'Pay £25' }).click();
  await expect(modal.getByTestId('top-up-paid')).toHaveText('Payment Successful');
  await expect(page.getByTestId('available-credits')).toHaveText(String(before + 25));
  expect(await serverBalance(page)).toBe(before + 25);

  const record = await stripe.record();
  expect(record.createPaymentMethod).toEqual([
    {
      type: 'card',
      billing_details: {
        name: `${user.firstName} ${user.lastName}`,
        email: user.email,
        address: { line1: '1 Quay Street', city: 'Bristol', postal_code: 'BS1 4DJ', country: 'GB' },
      },
    },
  ]);
  expect(record.confirmCardPayment).toHaveLength(1);
  expect(record.confirmCardPayment[0]).toMatch(/^pi_\w+_secret_\w+$/);
});

test('stripe mode: when Stripe.js cannot be loaded, the modal says so', async ({ page }) => {
  await signInFresh(page, 'topup-stripe-down');
  await page.route('**/v1/payments/config', (route) =>
    route.fulfill({ json: { mode: 'stripe', publishable_key: 'pk_test_e2e' } }),
  );
  await page.route('https://js.stripe.com/**', (route) => route.abort());
  await page.getByRole('button', { name: 'Top Up' }).click();
  const modal = topUpModal(page);
  await expect(modal.getByTestId('payment-form-error')).toHaveText('Something went wrong');
  await expect(modal.getByRole('button', { name: 'Cancel' })).toBeEnabled();
});
