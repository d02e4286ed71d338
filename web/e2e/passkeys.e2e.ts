import { expect, test, type CDPSession, type Page } from '@playwright/test';
import { expectNoA11yViolations } from './support/axe';
import { ageSessionsOf, createVerifiedUser, signIn, type NewUser } from './support/session';

/**
 * Passkeys from the Settings page, made and used by Chromium's virtual authenticator (CDP WebAuthn): a platform
 * authenticator that keeps discoverable passkeys and verifies the person (as a fingerprint would) unless told not to.
 */

async function virtualAuthenticator(page: Page, options: { verified?: boolean } = {}) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: options.verified ?? true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}

async function credentialsOf(cdp: CDPSession, authenticatorId: string) {
  return (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials;
}

async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Logout' }).locator('visible=true').click();
  await expect(page).toHaveURL(/\/login$/);
}

async function passwordStep(page: Page, user: NewUser) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('second-factor-form')).toBeVisible();
}

test('adds a passkey on Settings, signs in with it alone and after the password, and removes it', async ({ page }) => {
  const user = await createVerifiedUser(page, 'passkey');
  const { cdp, authenticatorId } = await virtualAuthenticator(page);
  await signIn(page, user);

  await page.goto('/dashboard/settings');
  const section = page.getByRole('region', { name: 'Passkeys' });
  await expect(section.getByTestId('passkeys-none')).toHaveText('No passkeys yet.');
  await section.getByRole('button', { name: 'Add a passkey' }).click();
  await section.getByLabel('Name').fill('This laptop');
  await expectNoA11yViolations(page, 'adding a passkey');
  await section.getByRole('button', { name: 'Add passkey' }).click();
  // The account's first second factor: its recovery codes, shown once.
  await expect(section.getByTestId('recovery-codes').getByRole('listitem')).toHaveCount(10);
  await section.getByRole('button', { name: 'I have saved them' }).click();
  await expect(section.getByTestId('passkey')).toHaveCount(1);
  await expect(section.getByTestId('passkey')).toContainText('This laptop');
  await expect(section.getByTestId('passkey')).toContainText('Not used yet');
  await expect(page.getByRole('region', { name: 'Two-factor authentication' }).getByTestId('mfa-state')).toHaveText(
    'No app: sign-ins with your password ask for your passkey. 10 of 10 recovery codes left.',
  );
  const [made] = await credentialsOf(cdp, authenticatorId);
  expect(made).toMatchObject({ isResidentCredential: true, rpId: 'localhost' });

  // Without a password: the passkey names the account.
  await signOut(page);
  await page.getByRole('button', { name: 'Use a passkey' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { name: 'Tickets Overview' })).toBeVisible();

  // After the password it is the second factor; the form offers it, and recovery codes besides.
  await signOut(page);
  await passwordStep(page, user);
  await expect(page.getByLabel('Recovery code')).toBeVisible();
  await expectNoA11yViolations(page, 'second factor with a passkey');
  await page.getByRole('button', { name: 'Use your passkey' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  await page.goto('/dashboard/settings');
  await expect(section.getByTestId('passkey')).toContainText('Last used');
  // Long signed in: removing it asks to confirm, and the passkey itself confirms.
  await ageSessionsOf(user.email);
  await section.getByRole('button', { name: 'Remove passkey This laptop' }).click();
  const dialog = page.getByRole('dialog', { name: 'Confirm it is you' });
  await expect(dialog).toContainText('Confirm it is you: use your passkey, or enter a recovery code');
  await expectNoA11yViolations(page, 'step-up with a passkey');
  await dialog.getByRole('button', { name: 'Use your passkey' }).click();
  await expect(dialog).toBeHidden();
  await expect(section.getByTestId('passkeys-none')).toBeVisible();
  // Gone: the password alone signs in again, and the passkey the device still holds signs nobody in.
  await signOut(page);
  await signIn(page, user);
  await signOut(page);
  await page.getByRole('button', { name: 'Use a passkey' }).click();
  await expect(page.getByTestId('login-error')).toHaveText('That passkey could not be used. Try again.');
  await expect(page).toHaveURL(/\/login$/);
});

test('a passkey that does not verify the person, or none on the device, says so and signs nobody in', async ({
  page,
}) => {
  const user = await createVerifiedUser(page, 'passkey-uv');
  const { cdp, authenticatorId } = await virtualAuthenticator(page);
  await signIn(page, user);
  await page.goto('/dashboard/settings');
  const section = page.getByRole('region', { name: 'Passkeys' });
  await section.getByRole('button', { name: 'Add a passkey' }).click();
  await section.getByLabel('Name').fill('Key');
  await section.getByRole('button', { name: 'Add passkey' }).click();
  await section.getByRole('button', { name: 'I have saved them' }).click();
  await signOut(page);

  // The fingerprint not recognised: the browser refuses before anything is sent.
  await cdp.send('WebAuthn.setUserVerified', { authenticatorId, isUserVerified: false });
  await page.getByRole('button', { name: 'Use a passkey' }).click();
  await expect(page.getByTestId('login-error')).toHaveText('Your passkey was not used. Try again.');
  await expect(page).toHaveURL(/\/login$/);
  // Nor after the password: a fingerprint that failed is no factor; the recovery codes remain.
  await passwordStep(page, user);
  await page.getByRole('button', { name: 'Use your passkey' }).click();
  await expect(page.getByTestId('second-factor-error')).toHaveText('Your passkey was not used. Try again.');
  await page.getByRole('button', { name: 'Back to sign in' }).click();

  // No passkey on this device any more.
  await cdp.send('WebAuthn.clearCredentials', { authenticatorId });
  await page.getByRole('button', { name: 'Use a passkey' }).click();
  await expect(page.getByTestId('login-error')).toHaveText('Your passkey was not used. Try again.');
});
