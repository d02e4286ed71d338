import { expect, test } from '@playwright/test';
import { expectNoA11yViolations } from './support/axe';
import { createVerifiedUser, demo, signIn, submitSignIn, userRow } from './support/session';

test('a banned user is signed out of their open dashboard at once, cannot sign in, and can again once unbanned', async ({
  browser,
}) => {
  const userContext = await browser.newContext();
  const adminContext = await browser.newContext();
  try {
    const userPage = await userContext.newPage();
    const user = await createVerifiedUser(userPage, 'banned');
    await signIn(userPage, user);

    const adminPage = await adminContext.newPage();
    await signIn(adminPage, demo.admin);
    await adminPage.goto('/admin/users');
    const row = userRow(adminPage, user.email);
    await expect(row).toHaveAttribute('data-banned', 'false');
    const actions = row.getByTestId('user-actions');
    const banButton = actions.getByRole('button', { name: 'Ban', exact: true });

    // A ban is asked about first; Cancel (which has the focus) does nothing.
    await banButton.click();
    const confirm = adminPage.getByRole('alertdialog', { name: 'Ban this user?' });
    await expect(confirm).toBeVisible();
    await expect(confirm).toContainText(user.email);
    await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await expectNoA11yViolations(adminPage, 'ban confirmation');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirm).toBeHidden();
    await expect(banButton).toBeFocused();
    await expect(row).toHaveAttribute('data-banned', 'false');

    await banButton.click();
    await confirm.getByRole('button', { name: 'Ban user' }).click();
    await expect(adminPage.getByText('User has been banned')).toBeVisible();
    await expect(row).toHaveAttribute('data-banned', 'true');
    await expect(actions.getByRole('button', { name: 'Unban', exact: true })).toBeVisible();

    // Nobody touches the user's page: the server ends the session and the app notices.
    await expect(userPage).toHaveURL(/\/login$/, { timeout: 15_000 });
    await expect(userPage.getByRole('button', { name: 'Sign in' })).toBeVisible();

    await submitSignIn(userPage, user);
    await expect(userPage.getByTestId('login-error')).toHaveText('Your account has been banned');
    await expectNoA11yViolations(userPage, 'sign-in with an error');
    await expect(userPage).toHaveURL(/\/login$/);

    await actions.getByRole('button', { name: 'Unban', exact: true }).click();
    await expect(adminPage.getByText('User has been unbanned')).toBeVisible();
    await expect(row).toHaveAttribute('data-banned', 'false');

    await signIn(userPage, user);
    await expect(userPage.getByTestId('user-email')).toHaveText(user.email);
  } finally {
    await userContext.close();
    await adminContext.close();
  }
});
