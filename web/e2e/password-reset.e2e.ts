import { expect, test } from '@playwright/test';
import { linkIn, waitForMail } from './support/mail-catcher';
import { expectNoA11yViolations } from './support/axe';
import { createVerifiedUser, signIn, submitSignIn } from './support/session';

test.describe('forgotten password and e-mail links (docs/reference.md#sign-in-and-password-screens and #password-rules)', () => {
  test('the Reset Password modal holds the focus, closes on Escape and gives the focus back', async ({ page }) => {
    await page.goto('/login');
    const opener = page.getByRole('button', { name: 'Forgot your password' });
    await opener.click();
    const dialog = page.getByRole('dialog', { name: 'Reset Password' });
    await expect(dialog).toBeVisible();
    const email = dialog.getByLabel('Email address');
    await expect(email).toBeFocused();
    await expectNoA11yViolations(page, 'forgot-password modal');

    // Tab goes round the modal's own controls and never reaches the page behind it.
    const cycle = [
      dialog.getByRole('button', { name: 'Cancel' }),
      dialog.getByRole('button', { name: 'Send Reset Instructions' }),
      email,
    ];
    for (let round = 0; round < 2; round++) {
      for (const control of cycle) {
        await page.keyboard.press('Tab');
        await expect(control).toBeFocused();
      }
    }
    await page.keyboard.press('Shift+Tab');
    await expect(cycle[1]!).toBeFocused();
    expect(await dialog.evaluate((el) => el.contains(document.activeElement))).toBe(true);

    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(opener).toBeFocused();

    // Opened from the keyboard too; a click on the backdrop closes it.
    await page.keyboard.press('Enter');
    await expect(dialog).toBeVisible();
    await expect(email).toBeFocused();
    await page.mouse.click(5, 5);
    await expect(dialog).toBeHidden();
    await expect(opener).toBeFocused();
  });

  test('a user resets a forgotten password from the sign-in screen; the link works once', async ({ page }) => {
    const user = await createVerifiedUser(page, 'reset');
    const newPassword = 'Fresh-pass7';

    await page.goto('/login');
    await page.getByRole('button', { name: 'Forgot your password' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reset Password' });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();

    await page.getByRole('button', { name: 'Forgot your password' }).click();
    await expect(dialog).toBeVisible();
    await dialog.getByLabel('Email address').fill(user.email);
    const requestedAt = Date.now();
    await dialog.getByRole('button', { name: 'Send Reset Instructions' }).click();
    await expect(dialog.getByTestId('forgot-password-success')).toHaveText(
      'Password reset instructions have been sent to your email.',
    );
    await expect(dialog.getByTestId('forgot-password-error')).toHaveCount(0);
    await expectNoA11yViolations(page, 'forgot-password modal after sending');

    const link = linkIn(await waitForMail(user.email, /Reset your password/, requestedAt));
    expect(new URL(link).pathname).toBe('/reset-password');
    await page.goto(link);
    const newPasswordField = page.getByLabel('New Password', { exact: true });
    await expect(newPasswordField).toBeVisible();
    await expect(page.getByTestId('reset-invalid')).toHaveCount(0);
    await expectNoA11yViolations(page, 'reset password');
    await newPasswordField.fill(newPassword);
    await page.getByLabel('Confirm New Password', { exact: true }).fill(newPassword);
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await expect(page.getByText('Password reset successfully')).toBeVisible();
    const resetAt = Date.now();
    // docs/reference.md "Routing rules": to / after 2 seconds; / leads a signed-out visitor on to /login.
    await expect(page).not.toHaveURL(/\/reset-password/, { timeout: 10_000 });
    expect(Date.now() - resetAt).toBeGreaterThanOrEqual(1_500);
    await expect(page).toHaveURL(/\/login$/);

    // The old password no longer works; the new one does.
    await submitSignIn(page, user);
    await expect(page.getByTestId('login-error')).toHaveText('Invalid email or password');
    await expect(page).toHaveURL(/\/login$/);
    await signIn(page, { email: user.email, password: newPassword });
    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/login$/);

    // The link is used up.
    await page.goto(link);
    await expect(page.getByTestId('reset-invalid')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Invalid Reset Link' })).toBeVisible();
    await expect(page.getByLabel('New Password', { exact: true })).toHaveCount(0);
  });

  test("an unknown reset token shows 'Invalid Reset Link'", async ({ page }) => {
    await page.goto('/reset-password?token=not-a-real-token');
    await expect(page.getByTestId('reset-invalid')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Invalid Reset Link' })).toBeVisible();
    await expectNoA11yViolations(page, 'invalid reset link');
  });

  test("/verify-email without a token says 'Verification token is missing'", async ({ page }) => {
    await page.goto('/verify-email');
    const status = page.getByTestId('verify-status');
    await expect(status).toHaveAttribute('data-state', 'error');
    await expect(status).toContainText('Verification token is missing');
    await expectNoA11yViolations(page, 'email verification');
  });
});
