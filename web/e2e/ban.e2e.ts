import { expect, test } from '@playwright/test';
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
    await actions.getByRole('button', { name: 'Ban', exact: true }).click();
    await expect(adminPage.getByText('User has been banned')).toBeVisible();
    await expect(row).toHaveAttribute('data-banned', 'true');
    await expect(actions.getByRole('button', { name: 'Unban', exact: true })).toBeVisible();

    // Nobody touches the user's page: the server ends the session and the app notices.
    await expect(userPage).toHaveURL(/\/login$/, { timeout: 15_000 });
    await expect(userPage.getByRole('button', { name: 'Sign in' })).toBeVisible();

    await submitSignIn(userPage, user);
    await expect(userPage.getByTestId('login-error')).toHaveText('Your account has been banned');
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
