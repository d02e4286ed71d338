import { expect, request, test } from '@playwright/test';
import { expectNoA11yViolations } from './support/axe';
import { linkIn, waitForMail } from './support/mail-catcher';
import { createVerifiedUser, submitSignIn } from './support/session';

/** THROTTLE_LOGIN_ACCOUNT of the stack under test (support/global-setup.ts). */
const ACCOUNT_LIMIT = 25;
const LINK_SENT =
  "For your security, we need to check it's you. If your email and password are correct, we've emailed you a link to sign in. It works for 15 minutes.";
const LINK_INVALID = 'This sign-in link is invalid or has expired.';

/** Spends the account's count of failed sign-ins from anywhere, through the API, as an attacker would. */
async function attack(email: string) {
  const api = await request.newContext({ baseURL: process.env.E2E_BASE_URL });
  try {
    for (let i = 0; i < ACCOUNT_LIMIT; i++) {
      const res = await api.post('/v1/auth', { data: { email, password: `Wrong-pass${i}`, token: null } });
      expect(res.status()).toBe(401);
    }
  } finally {
    await api.dispose();
  }
}

test.describe('an owner is never locked out: the e-mailed sign-in link', () => {
  test('past the failed sign-ins on an account, the owner signs in with the link from the e-mail, once', async ({
    page,
  }) => {
    const user = await createVerifiedUser(page, 'attacked');
    await attack(user.email);

    // The right password: no session yet, a notice (not a red error) that a link was e-mailed.
    const askedAt = Date.now();
    await submitSignIn(page, user);
    await expect(page.getByTestId('sign-in-link-sent')).toHaveText(LINK_SENT);
    await expect(page.getByTestId('login-error')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeEnabled();
    await expect(page).toHaveURL(/\/login$/);
    await expectNoA11yViolations(page, 'sign-in, link e-mailed');

    const link = linkIn(await waitForMail(user.email, /Your sign-in link/, askedAt));
    expect(new URL(link).pathname).toBe('/sign-in-link');
    await page.goto(link);
    await expect(page.getByRole('heading', { name: 'Sign in with your email link' })).toBeVisible();
    await expectNoA11yViolations(page, 'sign-in link');
    // Opening the page uses nothing up; pressing the button signs in, to the Tickets Overview.
    await page.reload();
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('heading', { name: 'Tickets Overview' })).toBeVisible();
    await expect(page.getByTestId('user-email')).toHaveText(user.email);

    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/login$/);

    // The link works once.
    await page.goto(link);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByTestId('sign-in-link-error')).toHaveText(LINK_INVALID);
    await expect(page).toHaveURL(/\/sign-in-link\?token=/);
    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/login$/);
  });

  test('a wrong password past the count gets the same notice', async ({ page }) => {
    const user = await createVerifiedUser(page, 'guessed');
    await attack(user.email);
    await submitSignIn(page, { email: user.email, password: 'Wrong-guess1' });
    await expect(page.getByTestId('sign-in-link-sent')).toHaveText(LINK_SENT);
    await expect(page).toHaveURL(/\/login$/);
  });

  test('/sign-in-link without a token says the link does not work', async ({ page }) => {
    await page.goto('/sign-in-link');
    await expect(page.getByTestId('sign-in-link-error')).toHaveText(LINK_INVALID);
    await expect(page.getByRole('button', { name: 'Sign in' })).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Back to sign in' })).toBeVisible();
    await expectNoA11yViolations(page, 'sign-in link without a token');
  });
});
