import { expect, test, type Browser, type Page } from '@playwright/test';
import { expectNoA11yViolations } from './support/axe';
import { datePicker, pickerParts, pickerText, typeInPicker } from './support/date-picker';
import { FIXTURE_INVITES } from './support/fixtures';
import { demo, generateInviteCode, inviteRow, newUser, signIn, submitRegistration } from './support/session';

/** Registers a new visitor with `code` in a context of their own; answers that visitor's page (closed by the test). */
async function registerVisitor(browser: Browser, name: string, code: string): Promise<Page> {
  const context = await browser.newContext();
  const visitor = await context.newPage();
  await submitRegistration(visitor, newUser(name), code);
  return visitor;
}

/** The server's refusal in the registration form, and no success. */
async function expectRefused(visitor: Page, message: string) {
  await expect(visitor.getByTestId('register-error')).toHaveText(message);
  await expect(visitor.getByTestId('register-success')).toHaveCount(0);
  await expect(visitor).toHaveURL(/\/register$/);
}

test.describe('invite codes (docs/reference.md#admin-screens, #invite-code-states and #admin-form-rules)', () => {
  // The browser's own locale is en-US; the product shows and reads dates en-GB regardless
  // (docs/reference.md "Limits and constants").
  test.use({ locale: 'en-US' });

  test.beforeEach(async ({ page }) => {
    await signIn(page, demo.admin);
    await page.goto('/admin/invites');
  });

  test('the page passes axe; the expiry date is picked en-GB, day first, and checked before sending', async ({
    page,
  }) => {
    await expect(page.getByTestId('invite-row').first()).toBeVisible();
    await expectNoA11yViolations(page, 'invite codes');
    const form = page.getByTestId('invite-form');
    const expiry = datePicker(form, 'Expiry Date');
    // dd/mm/yyyy in an en-US browser: a date picker, no longer free text.
    expect(await pickerParts(expiry)).toEqual(['day', 'month', 'year']);
    await expect.poll(() => pickerText(expiry)).toBe('dd/mm/yyyy');
    const earliest = (await form.getByTestId('expires-at-earliest').textContent()) ?? '';
    expect(earliest).toMatch(/^\d{2}\/\d{2}\/\d{4}$/);
    const error = form.getByTestId('expires-at-error');
    const generate = form.getByRole('button', { name: 'Generate Code' });
    let posts = 0;
    page.on('request', (req) => {
      if (req.method() === 'POST' && new URL(req.url()).pathname === '/v1/admin/invites') posts++;
    });

    await generate.click();
    await expect(error).toHaveText('Expiry date is required');
    await expect(expiry).toHaveAttribute('data-invalid', 'true');
    // The calendar opens on the earliest day's month and offers nothing before that day.
    await expiry.getByRole('button', { name: /^Calendar/ }).click();
    const calendar = page.getByRole('dialog', { name: 'Calendar Expiry Date' });
    const [day, month, year] = earliest.split('/').map(Number) as [number, number, number];
    const monthName = new Intl.DateTimeFormat('en-GB', { month: 'long', timeZone: 'UTC' }).format(
      new Date(Date.UTC(year, month - 1, 1)),
    );
    const cell = (d: number) => calendar.getByRole('button', { name: new RegExp(`, ${d} ${monthName} ${year}(,|$)`) });
    await expect(cell(day)).toHaveAccessibleName(/First available date$/);
    await expect(cell(day)).not.toHaveAttribute('aria-disabled', 'true');
    if (day > 1) await expect(cell(day - 1)).toHaveAttribute('aria-disabled', 'true');
    await expectNoA11yViolations(page, 'invite expiry calendar');
    await page.keyboard.press('Escape');
    await expect(calendar).toBeHidden();

    // A day and no more: not a date yet, and said so rather than taken for an empty field.
    await typeInPicker(expiry, '31');
    await generate.click();
    await expect(error).toHaveText('Enter the expiry date as dd/mm/yyyy');
    // 12/31/2030 read day first: the 12th of March (31 is no month), so month-first typing cannot slip through.
    await typeInPicker(expiry, '12/31/2030');
    await expect.poll(() => pickerText(expiry)).toMatch(/^12\/03\//);
    await typeInPicker(expiry, '01/01/2020');
    await generate.click();
    await expect(error).toHaveText('Expiry date must be tomorrow or later');
    await expectNoA11yViolations(page, 'invite form with an error');
    expect(posts).toBe(0);

    // 31 December 2030 is day 31, month 12, whatever the browser's locale; the list shows it en-GB too.
    await typeInPicker(expiry, '31/12/2030');
    await expect.poll(() => pickerText(expiry)).toBe('31/12/2030');
    const created = page.waitForResponse(
      (res) => res.request().method() === 'POST' && new URL(res.url()).pathname === '/v1/admin/invites',
    );
    await generate.click();
    const response = await created;
    expect(response.request().postDataJSON()).toMatchObject({ expires_at: '2030-12-31' });
    const { invite_code } = (await response.json()) as { invite_code: { code: string } };
    await expect(inviteRow(page, invite_code.code).getByTestId('invite-expires')).toHaveText('31 Dec 2030');
  });

  test('a code with Max Uses 1 works once, shows 1 / 1 in red, and refuses the next registration', async ({
    page,
    browser,
  }) => {
    const code = await generateInviteCode(page, 1);
    const row = inviteRow(page, code);
    await expect(row.getByTestId('invite-usage')).toHaveText('0 / 1');
    await expect(row.getByTestId('usage-bar')).toHaveAttribute('data-level', 'green');

    const first = await registerVisitor(browser, 'used-up-first', code);
    try {
      await expect(first.getByTestId('register-success')).toBeVisible();
    } finally {
      await first.context().close();
    }

    await page.reload();
    await expect(row.getByTestId('invite-usage')).toHaveText('1 / 1');
    await expect(row.getByTestId('usage-bar')).toHaveAttribute('data-level', 'red');
    await expect(row.getByTestId('usage-bar')).toHaveAttribute('aria-valuenow', '1');

    const second = await registerVisitor(browser, 'used-up-second', code);
    try {
      await expectRefused(second, 'This invite code has reached its maximum number of uses');
    } finally {
      await second.context().close();
    }
    await page.reload();
    await expect(row.getByTestId('invite-usage')).toHaveText('1 / 1');
  });

  test('the usage bar is green below 70 %, yellow from 70 % and red from 90 %', async ({ page, browser }) => {
    const code = await generateInviteCode(page, 4);
    const row = inviteRow(page, code);
    const expected = ['green', 'green', 'yellow', 'red']; // 25 %, 50 %, 75 %, 100 %
    for (const [index, level] of expected.entries()) {
      const visitor = await registerVisitor(browser, `usage-${index}`, code);
      try {
        await expect(visitor.getByTestId('register-success')).toBeVisible();
      } finally {
        await visitor.context().close();
      }
      await page.reload();
      await expect(row.getByTestId('invite-usage')).toHaveText(`${index + 1} / 4`);
      await expect(row.getByTestId('usage-bar')).toHaveAttribute('data-level', level);
    }
  });

  test('the expired fixture code is shown as Expired and refused', async ({ page, browser }) => {
    await expect(inviteRow(page, FIXTURE_INVITES.expired)).toHaveAttribute('data-status', 'Expired');
    const visitor = await registerVisitor(browser, 'expired-code', FIXTURE_INVITES.expired);
    try {
      await expectRefused(visitor, 'This invite code has expired');
    } finally {
      await visitor.context().close();
    }
  });

  test('a disabled code is shown as Disabled and refused', async ({ page, browser }) => {
    const code = await generateInviteCode(page, 10);
    const row = inviteRow(page, code);
    await expect(row).toHaveAttribute('data-status', 'Active');
    await row.getByRole('button', { name: 'Disable' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Disable this invite code?' });
    await expect(confirm).toContainText(code);
    await confirm.getByRole('button', { name: 'Disable code' }).click();
    await expect(page.getByText('Invite code disabled')).toBeVisible();
    await expect(row).toHaveAttribute('data-status', 'Disabled');
    await expect(row.getByRole('button', { name: 'Disable' })).toBeDisabled();
    // Kept by the server, not only on screen.
    await page.reload();
    await expect(row).toHaveAttribute('data-status', 'Disabled');

    const visitor = await registerVisitor(browser, 'disabled-code', code);
    try {
      await expectRefused(visitor, 'This invite code has been disabled');
    } finally {
      await visitor.context().close();
    }
    await page.reload();
    await expect(row.getByTestId('invite-usage')).toHaveText('0 / 10');
  });

  test('Copy puts the code on the clipboard with a toast', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const code = await generateInviteCode(page, 3);
    await inviteRow(page, code).getByRole('button', { name: 'Copy' }).click();
    await expect(page.getByText('Invite code copied to clipboard')).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(code);
  });

  test('Delete asks first; Escape keeps the code, confirming removes the row for good', async ({ page }) => {
    const code = await generateInviteCode(page, 2);
    const row = inviteRow(page, code);
    const deleteButton = row.getByRole('button', { name: 'Delete' });
    const confirm = page.getByRole('alertdialog', { name: 'Delete this invite code?' });

    await deleteButton.click();
    await expect(confirm).toContainText(code);
    await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await expectNoA11yViolations(page, 'delete invite confirmation');
    await page.keyboard.press('Escape');
    await expect(confirm).toBeHidden();
    await expect(deleteButton).toBeFocused();
    await expect(row).toHaveAttribute('data-status', 'Active');

    await deleteButton.click();
    await confirm.getByRole('button', { name: 'Delete code' }).click();
    await expect(page.getByText('Invite code deleted')).toBeVisible();
    await expect(row).toHaveCount(0);
    await page.reload();
    await expect(page.getByTestId('invites-table')).toBeVisible();
    await expect(page.getByTestId('invite-row').first()).toBeVisible();
    await expect(row).toHaveCount(0);
  });
});
