import { expect, test, type Page } from '@playwright/test';
import { generate } from 'otplib';
import { expectNoA11yViolations } from './support/axe';
import { ageSessionsOf, createVerifiedUser, demo, type NewUser, signIn, userRowOnAdminPage } from './support/session';

/**
 * A second factor from the Settings page: an authenticator app set up by scanning (here: reading) its key and typing
 * its first code, the recovery codes shown once; then every sign-in asks for a code after the password, and a
 * recovery code works once.
 */

/** The code the app shows `stepsAhead` periods from now (a code is taken once, so each sign-in uses the next). */
const codeOf = (secret: string, stepsAhead = 0) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + stepsAhead * 30 });

async function passwordStep(page: Page, user: NewUser) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByLabel('Authentication code')).toBeVisible();
}

async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Logout' }).locator('visible=true').click();
  await expect(page).toHaveURL(/\/login$/);
}

test('sets up an authenticator app, then signs in with its code and with a recovery code once', async ({ page }) => {
  const user = await createVerifiedUser(page, 'totp');
  await page.goto('/login');
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  await page.goto('/dashboard/settings');
  const section = page.getByRole('region', { name: 'Two-factor authentication' });
  await expect(section.getByTestId('mfa-state')).toHaveText('Off: your password alone signs you in.');
  await section.getByRole('button', { name: 'Set up an authenticator app' }).click();
  await expect(section.getByRole('img', { name: 'QR code of the key for your authenticator app' })).toBeVisible();
  const secret = ((await section.getByTestId('totp-secret').textContent()) ?? '').replace(/\s/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await expectNoA11yViolations(page, 'authenticator set-up');
  // A wrong first code is said under the field; the right one turns it on.
  const first = await codeOf(secret);
  await section.getByLabel('Code from the app').fill(first === '000000' ? '111111' : '000000');
  await section.getByRole('button', { name: 'Turn on' }).click();
  await expect(section.getByText('That code is not right')).toBeVisible();
  await section.getByLabel('Code from the app').fill(first);
  await section.getByRole('button', { name: 'Turn on' }).click();
  const codes = section.getByTestId('recovery-codes').getByRole('listitem');
  await expect(codes).toHaveCount(10);
  const recovery = (await codes.allTextContents()).map((c) => c.trim());
  for (const code of recovery) expect(code).toMatch(/^[A-Z2-7]{5}-[A-Z2-7]{5}$/);
  await section.getByRole('button', { name: 'I have saved them' }).click();
  await expect(section.getByTestId('mfa-state')).toContainText('10 of 10 recovery codes left');

  // The password alone no longer signs in: the code is asked for.
  await signOut(page);
  await passwordStep(page, user);
  await expectNoA11yViolations(page, 'second factor step');
  await page.getByLabel('Authentication code').fill(first);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByTestId('second-factor-error')).toHaveText('That code is not right');
  await page.getByLabel('Authentication code').fill(await codeOf(secret, 1));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  // A recovery code, typed in lower case: once.
  await signOut(page);
  await passwordStep(page, user);
  await page.getByLabel('Authentication code').fill(recovery[0]!.toLowerCase());
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await signOut(page);
  await passwordStep(page, user);
  await page.getByLabel('Authentication code').fill(recovery[0]!);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByTestId('second-factor-error')).toHaveText('That code is not right');
  // Back to the password, and in with another recovery code.
  await page.getByRole('button', { name: 'Back to sign in' }).click();
  await passwordStep(page, user);
  await page.getByLabel('Authentication code').fill(recovery[1]!);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  // Turned off with a recovery code: the password alone signs in again.
  await page.goto('/dashboard/settings');
  await expect(section.getByTestId('mfa-state')).toContainText('8 of 10 recovery codes left');
  await section.getByRole('button', { name: 'Turn off' }).click();
  await section.getByLabel('Code from the app, or a recovery code').fill(recovery[2]!);
  await section.getByRole('button', { name: 'Turn off' }).click();
  await expect(section.getByTestId('mfa-state')).toHaveText('Off: your password alone signs you in.');
});

test('lists the signed-in sessions; signing one out from here signs that page out at once', async ({
  page,
  browser,
}) => {
  const user = await createVerifiedUser(page, 'sessions');
  const phone = await browser.newContext({
    userAgent:
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
    viewport: { width: 390, height: 844 },
  });
  try {
    const phonePage = await phone.newPage();
    for (const p of [page, phonePage]) {
      await p.goto('/login');
      await p.getByLabel('Email').fill(user.email);
      await p.getByLabel('Password', { exact: true }).fill(user.password);
      await p.getByRole('button', { name: 'Sign in' }).click();
      await expect(p).toHaveURL(/\/dashboard$/);
    }
    await page.goto('/dashboard/settings');
    const section = page.getByRole('region', { name: 'Signed-in sessions' });
    const rows = section.getByTestId('session');
    await expect(rows).toHaveCount(2);
    await expect(rows.first()).toContainText('This session');
    await expect(rows.nth(1)).toContainText('Mobile Safari 18 on iOS 18.1 (Apple iPhone)');
    await expectNoA11yViolations(page, 'signed-in sessions');
    await section.getByRole('button', { name: 'Sign out Mobile Safari 18 on iOS 18.1 (Apple iPhone)' }).click();
    await expect(page.getByText('Signed out of that session')).toBeVisible();
    await expect(rows).toHaveCount(1);
    // The phone's page hears it over its socket and goes to the sign-in page without a reload.
    await expect(phonePage).toHaveURL(/\/login$/);
  } finally {
    await phone.close();
  }
});

test('an admin long signed in confirms with the password before setting credits; the call then goes through', async ({
  page,
}) => {
  await signIn(page, demo.admin);
  await ageSessionsOf(demo.admin.email);
  await page.goto('/admin/users');
  // The list runs newest first, ten to a page: the demo user may be pages in.
  const row = await userRowOnAdminPage(page, demo.user.email);
  const balance = ((await row.getByTestId('user-balance').textContent()) ?? '').replace(/,/g, '');
  await row.getByLabel(`Credits for ${demo.user.email}`).fill(balance);
  await row.getByRole('button', { name: 'Set', exact: true }).click();
  const credits = page.getByRole('alertdialog', { name: 'Set credits' });
  await credits.getByLabel('Reason').fill('Unchanged, to check the step-up');
  await credits.getByRole('button', { name: 'Set credits' }).click();
  const dialog = page.getByRole('dialog', { name: 'Confirm it is you' });
  await expect(dialog).toContainText('Confirm it is you: enter your password');
  await expectNoA11yViolations(page, 'step-up dialog');
  await dialog.getByLabel('Password').fill('not-the-password');
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(dialog.getByText('That password is not right')).toBeVisible();
  await dialog.getByLabel('Password').fill(demo.admin.password);
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Credits updated successfully')).toBeVisible();
  await expect(credits).toBeHidden();
});
