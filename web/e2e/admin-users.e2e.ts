import { expect, test, type Page } from '@playwright/test';
import { expectNoA11yViolations } from './support/axe';
import { setCredits } from './support/distribution';
import { createVerifiedUser, demo, type NewUser, signIn, userRow, userRowOnAdminPage } from './support/session';
import { apiSession } from './support/wallet-sim';

/** A user's id, as they see it (GET /v1/me). */
async function userIdOf(user: NewUser): Promise<string> {
  const api = await apiSession(user);
  try {
    return ((await (await api.get('/v1/me')).json()) as { id: string }).id;
  } finally {
    await api.dispose();
  }
}

/** True when the page itself scrolls sideways. */
function pageScrollsSideways(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
}

test.describe('admin users page (docs/reference.md#admin-screens and #admin-form-rules)', () => {
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
    await expect(page.getByTestId('set-credits-dialog')).toHaveCount(0);
    await expectNoA11yViolations(page, 'admin users, credits error');
    // Still on the users page: the clicks did not open the row's audit log.
    await expect(page).toHaveURL(/\/admin\/users$/);
    expect(puts).toBe(0);
  });

  test('setting credits asks first: from what to what, and why; the reason is kept in the audit log', async ({
    page,
  }) => {
    const user = await createVerifiedUser(page, 'credited');
    await signIn(page, demo.admin);
    await page.goto('/admin/users');
    const row = await userRowOnAdminPage(page, user.email);
    const field = row.getByLabel(`Credits for ${user.email}`);
    let puts = 0;
    page.on('request', (req) => {
      if (req.method() === 'PUT') puts++;
    });
    const dialog = page.getByRole('alertdialog', { name: 'Set credits' });
    const reason = dialog.getByLabel('Reason');
    const confirm = dialog.getByRole('button', { name: 'Set credits' });

    // Set asks: from what to what; the reason has the focus.
    await field.fill('75');
    await row.getByRole('button', { name: 'Set', exact: true }).click();
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText(`${user.email}: from 0 to 75 credits (+75).`);
    await expect(reason).toBeFocused();
    await expect(reason).toHaveAttribute('maxlength', '200');
    await expectNoA11yViolations(page, 'set credits dialog');
    // Cancel sends nothing and changes nothing.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await expect(row.getByTestId('user-balance')).toHaveText('0');
    await expect(page).toHaveURL(/\/admin\/users$/);

    // The reason is required, one line without control or bidi characters: said under the field, nothing sent.
    await row.getByRole('button', { name: 'Set', exact: true }).click();
    await confirm.click();
    await expect(dialog.getByTestId('credits-reason-error')).toHaveText('Reason is required');
    await reason.fill('Goodwill \u202Eetouq');
    await confirm.click();
    await expect(dialog.getByTestId('credits-reason-error')).toHaveText(
      'Reason contains characters that are not allowed',
    );
    expect(puts).toBe(0);

    // The balance moves meanwhile (another admin): the dialog follows it live, "from" as it is now.
    await setCredits(await userIdOf(user), 10, 'Set elsewhere');
    await expect(dialog).toContainText(`${user.email}: from 10 to 75 credits (+65).`);
    await reason.fill('Goodwill for the outage on 3 March');
    await expect(dialog.getByTestId('credits-reason-count')).toHaveText('34/200');
    await page.screenshot({ path: test.info().outputPath('set-credits-dialog.png') });
    // Had it moved between the last look and the click, the server refuses (int specs hold that); the dialog says so.
    const moved = 'The balance changed to 12 since you looked: check the new balance and confirm again';
    await page.route(
      '**/v1/admin/users/*/credits',
      (route) => route.fulfill({ status: 409, json: { message: moved, code: 'BALANCE_CHANGED', balance: 12 } }),
      { times: 1 },
    );
    await confirm.click();
    await expect(dialog.getByTestId('set-credits-error')).toHaveText(moved);
    await expect(page.getByText('Failed to update credits', { exact: true })).toBeVisible();
    expect(puts).toBe(1);

    // No answer at all (the connection drops): the dialog says 'Failed to update user credits'.
    await page.route('**/v1/admin/users/*/credits', (route) => route.abort('connectionreset'), { times: 1 });
    await confirm.click();
    await expect(dialog.getByTestId('set-credits-error')).toHaveText('Failed to update user credits');

    // Confirmed: set, said, and the row shows it.
    await confirm.click();
    await expect(page.getByText('Credits updated successfully')).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(row.getByTestId('user-balance')).toHaveText('75');
    await expect(field).toHaveValue('75');

    // The audit log says who set it, from what to what, and why.
    await row.getByTestId('user-audit-link').click();
    const set = page.getByTestId('audit-row').first();
    await expect(set.getByTestId('audit-type')).toHaveText('Credits Set');
    await expect(set.getByTestId('audit-words')).toHaveText(
      '10 → 75 · by admin@seatlink.test · “Goodwill for the outage on 3 March”',
    );
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
