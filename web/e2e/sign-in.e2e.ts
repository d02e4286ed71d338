import { expect, test } from '@playwright/test';
import { expectNoA11yViolations } from './support/axe';
import { createUnverifiedUser, demo, signIn, submitSignIn, userRowOnAdminPage } from './support/session';

test.describe('sign in and out', () => {
  test("a visitor's sign-in page logs no error, fails no request, and downloads none of the signed-in app", async ({
    page,
  }) => {
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    const failed: string[] = [];
    page.on('response', (response) => {
      if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
    });
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    const sessionChecks: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/v1/session') sessionChecks.push(request.method());
    });

    await page.goto('/login');
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
    await page.waitForLoadState('networkidle');

    expect(errors).toEqual([]);
    expect(failed).toEqual([]);
    // The status check is asked once (the page preloads it; the app's call takes that answer).
    expect(sessionChecks).toEqual(['GET']);
    // The frame, the overview (its QR codes too), live updates and the card payment are chunks of their own, loaded
    // once signed in.
    expect(scripts.length).toBeGreaterThan(0);
    for (const chunk of ['dashboard-layout', 'app-frame', 'tickets-overview-route', 'realtime', 'stripe']) {
      expect(
        scripts.filter((s) => s.includes(chunk)),
        chunk,
      ).toEqual([]);
    }
    // Nor does the page hold the start behind a stylesheet request: the styles come with it.
    expect(await page.locator('link[rel="stylesheet"]').count()).toBe(0);
  });

  test('passes axe, and the keyboard reaches every control in reading order', async ({ page }) => {
    await page.goto('/login');
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
    await expectNoA11yViolations(page, 'sign-in');

    const order = [
      page.getByLabel('Email', { exact: true }),
      page.getByLabel('Password', { exact: true }),
      page.getByRole('button', { name: 'Show' }),
      page.getByRole('button', { name: 'Forgot your password' }),
      page.getByRole('button', { name: 'Sign in' }),
      page.getByRole('button', { name: 'Use a passkey' }),
      page.getByRole('link', { name: 'Register' }),
    ];
    for (const control of order) {
      await page.keyboard.press('Tab');
      await expect(control).toBeFocused();
    }
    // And back.
    for (const control of order.slice(0, -1).reverse()) {
      await page.keyboard.press('Shift+Tab');
      await expect(control).toBeFocused();
    }

    // The form is usable from the keyboard alone: Enter in the password field signs in.
    await page.getByLabel('Email', { exact: true }).focus();
    await page.keyboard.type(demo.user.email);
    await page.keyboard.press('Tab');
    await page.keyboard.type(demo.user.password);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test('shows the server message in a red box for a wrong password', async ({ page }) => {
    await page.goto('/login');
    await page.getByLabel('Email').fill(demo.user.email);
    await page.getByLabel('Password', { exact: true }).fill('Wrong-password1');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByTestId('login-error')).toHaveText('Invalid email or password');
    await expect(page).toHaveURL(/\/login$/);
    await expectNoA11yViolations(page, 'sign-in with an error');
  });

  test('toggles the password between hidden and shown', async ({ page }) => {
    await page.goto('/login');
    const password = page.getByLabel('Password', { exact: true });
    await expect(password).toHaveAttribute('type', 'password');
    await page.getByRole('button', { name: 'Show' }).click();
    await expect(password).toHaveAttribute('type', 'text');
    await page.getByRole('button', { name: 'Hide' }).click();
    await expect(password).toHaveAttribute('type', 'password');
  });

  test('signs the user in to the Tickets Overview with their balance, and out again', async ({ page }) => {
    await signIn(page, demo.user);
    await expect(page.getByTestId('user-email')).toHaveText(demo.user.email);
    // The balance shown is the one the server holds for this user.
    const me = (await (await page.request.get('/v1/me')).json()) as { balance: number };
    await expect(page.getByTestId('available-credits')).toHaveText(me.balance.toLocaleString('en-GB'));
    await expect(page.getByRole('link', { name: 'Tickets', exact: true })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Accounts' })).toBeVisible();
    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByText('Successfully logged out')).toBeVisible();
    // The session is gone on the server too: a protected page sends us back.
    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/login$/);
  });

  test('the Tickets Overview, loaded afresh, breaks no rule of the Content-Security-Policy and logs no error', async ({
    page,
  }) => {
    await signIn(page, demo.user);
    // Rules broken are reported even when the page catches the failure (zod probing for eval did, on every load).
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) =>
        console.error(`CSP ${event.violatedDirective} ${event.blockedURI}`),
      );
    });
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Tickets Overview' })).toBeVisible();
    await expect(page.getByTestId('available-credits')).toBeVisible();
    expect(errors).toEqual([]);
  });

  test('shows the Admin group with Users, Invites, All Accounts and Duplicate Tickets to an admin', async ({
    page,
  }) => {
    await signIn(page, demo.admin);
    // The Admin group is collapsible: closing hides its links, opening shows them.
    const group = page.getByRole('button', { name: 'Admin' });
    await expect(group).toHaveAttribute('aria-expanded', 'true');
    await group.click();
    await expect(group).toHaveAttribute('aria-expanded', 'false');
    await expect(page.getByRole('link', { name: 'Users' })).toHaveCount(0);
    await group.click();
    await page.getByRole('link', { name: 'Users' }).click();
    await expect(page).toHaveURL(/\/admin\/users$/);
    await expect(page.getByRole('link', { name: 'Invites' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Duplicate Tickets' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'All Accounts' })).toHaveAttribute('href', '/admin/accounts');
    await expect(page.getByTestId('users-table')).toBeVisible();
    await userRowOnAdminPage(page, demo.user.email);
    await expectNoA11yViolations(page, 'admin users');
  });

  test("a resend of the verification e-mail that fails says so, and why: the server's words or 'Failed to resend verification email'", async ({
    page,
  }) => {
    const user = await createUnverifiedUser('resend-fails');
    await submitSignIn(page, user);
    const notice = page.getByTestId('email-not-verified-notice');
    await expect(notice).toBeVisible();
    // The resend fails twice: first refused with the server's message, then with no answer at all (the connection
    // drops), where only the fallback can be said.
    let attempts = 0;
    await page.route('**/v1/auth/resend-verification', (route) =>
      ++attempts === 1
        ? route.fulfill({
            status: 503,
            json: { message: 'The service is unavailable for a moment. Please try again.' },
          })
        : route.abort('connectionreset'),
    );
    const resend = notice.getByRole('button', { name: 'Resend verification email' });
    const failed = notice.getByTestId('resend-verification-error');
    await resend.click();
    await expect(failed).toContainText('Failed to send verification email. Please try again.');
    await expect(notice.getByTestId('resend-verification-reason')).toHaveText(
      'The service is unavailable for a moment. Please try again.',
    );
    await expectNoA11yViolations(page, 'sign-in, resend failed');
    await resend.click();
    await expect(notice.getByTestId('resend-verification-reason')).toHaveText('Failed to resend verification email');
    await expect(failed).toContainText('Failed to send verification email. Please try again.');
    await expect(notice.getByTestId('resend-verification-success')).toHaveCount(0);
    expect(attempts).toBe(2);
  });
});
