import { expect, test } from '@playwright/test';
import { expectNoA11yViolations } from './support/axe';
import { demo, signIn } from './support/session';

test.describe('route guards (docs/reference.md#routing-rules)', () => {
  test("shows 'Loading...' while the status check runs, then sends a visitor from / to /login", async ({ page }) => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/v1/session', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/');
    await expect(page.getByText('Loading...', { exact: true })).toBeVisible();
    release();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  });

  test('sends a visitor on a protected route to /login', async ({ page }) => {
    await page.goto('/dashboard/accounts');
    await expect(page).toHaveURL(/\/login$/);
  });

  test('sends a visitor on an admin route to /login', async ({ page }) => {
    await page.goto('/admin/users');
    await expect(page).toHaveURL(/\/login$/);
  });

  test('sends a signed-in non-admin from admin routes to /dashboard, and hides the Admin group', async ({ page }) => {
    await signIn(page, demo.user);
    await expect(page.getByRole('button', { name: 'Admin' })).toHaveCount(0);
    for (const path of ['/admin/users', '/admin/invites', '/admin/accounts', '/admin/duplicate-tickets']) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/dashboard$/);
    }
  });

  test('sends a signed-in visitor from /login to /dashboard', async ({ page }) => {
    await signIn(page, demo.user);
    await page.goto('/login');
    await expect(page).toHaveURL(/\/dashboard$/);
  });
});

test.describe('error screens (docs/reference.md#routing-rules)', () => {
  test("a page whose code chunk fails to load shows 'Loading chunk failed' with a way back, and Reload recovers", async ({
    page,
  }) => {
    let failing = true;
    await page.route('**/assets/waitlist.page-*.js', (route) => (failing ? route.abort() : route.continue()));
    await page.goto('/waitlist');
    await expect(page.getByRole('heading', { name: 'Unexpected Application Error!' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Loading chunk failed' })).toBeVisible();
    // The designed screen, not react-router's developer screen.
    await expect(page.getByText('Hey developer')).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Go to dashboard' })).toHaveAttribute('href', '/dashboard');
    await expectNoA11yViolations(page, 'chunk error screen');

    failing = false;
    await page.getByRole('button', { name: 'Reload' }).click();
    await expect(page.getByRole('heading', { name: 'Register Interest' })).toBeVisible();
  });

  test('an unknown address shows the 404 screen; Go to dashboard leads a visitor on to sign in', async ({ page }) => {
    // The server answers it 404 (it knows the router's pages), and the router shows its designed screen.
    const response = await page.goto('/no-such-page');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'Unexpected Application Error!' })).toBeVisible();
    await expect(page.getByRole('heading', { name: '404 Not Found' })).toBeVisible();
    await expectNoA11yViolations(page, '404 screen');
    await page.getByRole('link', { name: 'Go to dashboard' }).click();
    await expect(page).toHaveURL(/\/login$/);
  });

  test('a signed-in user gets the 404 screen inside the frame, with the navigation still there', async ({ page }) => {
    await signIn(page, demo.user);
    expect((await page.goto('/dashboard/no-such-page'))?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: '404 Not Found' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Accounts' })).toBeVisible();
    await expectNoA11yViolations(page, '404 screen in the frame');
    await page.getByRole('link', { name: 'Go to dashboard' }).click();
    await expect(page.getByRole('heading', { name: 'Tickets Overview' })).toBeVisible();
  });

  test('a page chunk that fails inside the frame keeps the sidebar', async ({ page }) => {
    await signIn(page, demo.user);
    await page.route('**/assets/accounts.page-*.js', (route) => route.abort());
    await page.getByRole('link', { name: 'Accounts' }).click();
    await expect(page.getByRole('heading', { name: 'Loading chunk failed' })).toBeVisible();
    await expect(page.getByTestId('user-email')).toHaveText(demo.user.email);
  });
});

test('/dashboard/accounts/{id} is the account tickets page, not a 404', async ({ page }) => {
  await signIn(page, demo.user);
  await expectNoA11yViolations(page, 'tickets overview');
  await page.goto('/dashboard/accounts');
  await expect(page.getByRole('heading', { name: 'Accounts', level: 1 })).toBeVisible();
  await expectNoA11yViolations(page, 'accounts');
  // An id that is no account of the user: the page's own not-found state, not the router's 404.
  await page.goto('/dashboard/accounts/3f6c1a2e-0000-4000-8000-000000000001');
  await expect(page.getByRole('heading', { name: 'Account Tickets' })).toBeVisible();
  await expect(page.getByTestId('account-not-found')).toContainText('Account not found');
  await expect(page.getByRole('heading', { name: '404 Not Found' })).toHaveCount(0);
  await expectNoA11yViolations(page, 'account tickets, not found');
  await page.getByRole('link', { name: 'Back to Accounts' }).click();
  await expect(page).toHaveURL(/\/dashboard\/accounts$/);
});
