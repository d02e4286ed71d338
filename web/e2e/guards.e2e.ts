import { expect, test } from '@playwright/test';
import { demo, signIn } from './support/session';

test.describe('route guards (SPEC §2)', () => {
  test("shows 'Loading...' while the status check runs, then sends a visitor from / to /login", async ({ page }) => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/v1/me', async (route) => {
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
    for (const path of ['/admin/users', '/admin/invites', '/admin/duplicate-tickets']) {
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

test("a page whose code chunk fails to load shows the router's error screen with 'Loading chunk failed'", async ({
  page,
}) => {
  await page.route('**/assets/waitlist.page-*.js', (route) => route.abort());
  await page.goto('/waitlist');
  await expect(page.getByRole('heading', { name: 'Unexpected Application Error!' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Loading chunk failed' })).toBeVisible();
});
