import { expect, test, type Page } from '@playwright/test';
import { expectNoA11yViolations } from './support/axe';
import { createVerifiedUser, demo, signIn, userRow } from './support/session';

/** True when the page itself scrolls sideways. */
function pageScrollsSideways(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
}

test.describe('admin users page (SPEC.md §2 "Admin users page", §5)', () => {
  test('at 1280 px every action of every row is on screen without scrolling', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    // A long address, as real ones can be.
    const user = await createVerifiedUser(page, 'a-rather-long-name-for-layout');
    await signIn(page, demo.admin);
    await page.goto('/admin/users');
    const row = userRow(page, user.email);
    await expect(row).toBeVisible();
    await expectNoA11yViolations(page, 'admin users, wide');

    expect(await pageScrollsSideways(page)).toBe(false);
    const table = page.getByTestId('users-table');
    const box = await table.evaluate((el) => {
      const scroller = el.parentElement!;
      return { scrollWidth: scroller.scrollWidth, clientWidth: scroller.clientWidth };
    });
    expect(box.scrollWidth).toBeLessThanOrEqual(box.clientWidth);
    for (const name of ['Ban', 'Reset password', 'Set']) {
      const button = row.getByRole('button', { name, exact: true });
      await expect(button).toBeInViewport({ ratio: 1 });
    }
    await expect(row.getByLabel(`Credits for ${user.email}`)).toBeInViewport({ ratio: 1 });
  });

  test('at 375 px each user is a card: nothing scrolls sideways, every action is in reach', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 812 });
    await signIn(page, demo.admin);
    await page.goto('/admin/users');
    await expect(page.getByTestId('user-row').first()).toBeVisible();
    expect(await pageScrollsSideways(page)).toBe(false);
    await expectNoA11yViolations(page, 'admin users, small screen');
    const table = page.getByTestId('users-table');
    const box = await table.evaluate((el) => ({
      scrollWidth: el.parentElement!.scrollWidth,
      clientWidth: el.parentElement!.clientWidth,
    }));
    expect(box.scrollWidth).toBeLessThanOrEqual(box.clientWidth);
    // Every action is on the card, whole on the screen once scrolled to (downwards only).
    const row = userRow(page, demo.user.email);
    for (const name of ['Ban', 'Reset password', 'Set']) {
      const button = row.getByRole('button', { name, exact: true });
      await button.scrollIntoViewIfNeeded();
      await expect(button).toBeInViewport({ ratio: 1 });
    }
    expect(await pageScrollsSideways(page)).toBe(false);
  });

  test('the credits field holds the balance, names a bad value inline and sends nothing', async ({ page }) => {
    await signIn(page, demo.admin);
    await page.goto('/admin/users');
    const row = userRow(page, demo.user.email);
    const field = row.getByLabel(`Credits for ${demo.user.email}`);
    const balance = ((await row.getByTestId('user-balance').textContent()) ?? '').replace(/,/g, '');
    await expect(field).toHaveValue(balance);
    await expect(field).toHaveAttribute('min', '0');
    await expect(field).toHaveAttribute('step', '1');

    let puts = 0;
    page.on('request', (req) => {
      if (req.method() === 'PUT') puts++;
    });
    const error = row.getByTestId('credits-error');
    for (const bad of ['-5', '2.5', '']) {
      await field.fill(bad);
      await row.getByRole('button', { name: 'Set', exact: true }).click();
      await expect(error).toHaveText('Use a whole number, 0 or more');
      await expect(field).toHaveAttribute('aria-invalid', 'true');
    }
    await expectNoA11yViolations(page, 'admin users, credits error');
    // Still on the users page: the clicks did not open the row's audit log.
    await expect(page).toHaveURL(/\/admin\/users$/);
    expect(puts).toBe(0);

    // A value the server refuses: the toast says 'Failed to update credits', the field says why in its words.
    await field.fill('2000000000');
    await row.getByRole('button', { name: 'Set', exact: true }).click();
    await expect(page.getByText('Failed to update credits', { exact: true })).toBeVisible();
    await expect(error).toHaveText('credits: credits must be at most 1000000000');
    expect(puts).toBe(1);
    // No answer at all (the connection drops): the field says 'Failed to update user credits'.
    await page.route('**/v1/admin/users/*/credits', (route) => route.abort('connectionreset'), { times: 1 });
    await field.fill('7');
    await row.getByRole('button', { name: 'Set', exact: true }).click();
    await expect(error).toHaveText('Failed to update user credits');
    await expect(page).toHaveURL(/\/admin\/users$/);

    await field.fill(balance);
    await expect(error).toHaveCount(0);
    await row.getByRole('button', { name: 'Set', exact: true }).click();
    await expect(page.getByText('Credits updated successfully')).toBeVisible();
    expect(puts).toBe(3);
  });

  test("a row click opens the user's audit log with their address under the title", async ({ page }) => {
    await signIn(page, demo.admin);
    await page.goto('/admin/users');
    await userRow(page, demo.user.email).getByTestId('user-name').click();
    await expect(page).toHaveURL(/\/admin\/users\/[^/]+\/audits$/);
    await expect(page.getByRole('heading', { name: 'User Audit Log' })).toBeVisible();
    await expect(page.getByTestId('audit-user-email')).toHaveText(demo.user.email);
    await expectNoA11yViolations(page, 'user audit log');
    await page.getByRole('link', { name: 'Back' }).click();
    await expect(page).toHaveURL(/\/admin\/users$/);
  });
});
