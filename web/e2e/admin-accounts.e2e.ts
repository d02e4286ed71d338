import { expect, test, type Page } from '@playwright/test';
import { expectNoA11yViolations } from './support/axe';
import { demo, signIn } from './support/session';

/**
 * The admin's views of every account and of the duplicate tickets (docs/reference.md "Admin screens"), over the demo
 * data: user@seatlink.test holds alex@ and sam@wallet.test, which share a pass.
 */

const EN_GB_DATE_TIME = /^\d{2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}$/;

function adminAccount(page: Page, email: string) {
  return page.locator(`[data-testid="admin-account"][data-email="${email}"]`);
}

test('an admin sees every account with its owner and its tickets', async ({ page }) => {
  await signIn(page, demo.admin);
  await page.goto('/admin/accounts');
  await expect(page.getByRole('heading', { name: 'All Accounts' })).toBeVisible();
  const alex = adminAccount(page, 'alex@wallet.test');
  await expect(alex).toBeVisible();
  await expect(alex.getByTestId('admin-account-owner')).toHaveText(`Owner: ${demo.user.email}`);
  await expect(adminAccount(page, 'sam@wallet.test').getByTestId('admin-account-owner')).toContainText(demo.user.email);
  await expect(page.getByTestId('admin-total-accounts')).not.toHaveText('0');
  await expectNoA11yViolations(page, 'admin accounts');

  // The tickets open under the account.
  const tickets = alex.getByTestId('admin-account-ticket');
  await expect(tickets.first()).toBeHidden();
  await alex.getByText(/^Tickets \(\d+\)/).click();
  await expect(tickets.first()).toBeVisible();
  const count = Number(
    /\((\d+)\)/.exec((await alex.getByTestId('admin-account-ticket-count').textContent()) ?? '')?.[1],
  );
  await expect(tickets).toHaveCount(count);
  await expectNoA11yViolations(page, 'admin accounts with tickets open');

  await page.getByLabel('Search accounts').fill('SAM@wallet');
  await expect(page.getByTestId('admin-account')).toHaveCount(1);
  await expect(adminAccount(page, 'sam@wallet.test')).toBeVisible();
  await page.getByLabel('Search accounts').fill('nobody at all');
  await expect(page.getByTestId('admin-accounts-empty')).toContainText('No accounts available');
});

test('an admin sees the duplicate groups: the master ticket and its duplicates', async ({ page }) => {
  await signIn(page, demo.admin);
  await page.getByRole('link', { name: 'Duplicate Tickets' }).click();
  await expect(page).toHaveURL(/\/admin\/duplicate-tickets$/);
  await expect(page.getByRole('heading', { name: 'Duplicate Tickets', level: 1 })).toBeVisible();
  const group = page.getByTestId('duplicate-group').first();
  await expect(group).toBeVisible();
  const master = group.getByTestId('master-ticket');
  await expect(master).toHaveCount(1);
  await expect(master).toContainText('Master');
  await expect(group.getByTestId('duplicate-ticket').first()).toContainText('Duplicate');
  // Created (en-GB), the account's and the owner's e-mails.
  await expect(master.getByTestId('ticket-created')).toHaveText(EN_GB_DATE_TIME);
  await expect(master.getByTestId('ticket-account-email')).toHaveText(/@wallet\.test$/);
  await expect(master.getByTestId('ticket-user-email')).toHaveText(demo.user.email);
  const accounts = await group.getByTestId('ticket-account-email').allTextContents();
  expect(new Set(accounts).size).toBe(accounts.length);
  await expect(page.getByTestId('duplicate-group-count')).not.toHaveText('0');
  await expectNoA11yViolations(page, 'duplicate tickets');
});

test.describe('on a small screen', () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test('the admin accounts and duplicates pages fit and pass axe', async ({ page }) => {
    await signIn(page, demo.admin);
    await page.goto('/admin/accounts');
    await expect(adminAccount(page, 'alex@wallet.test')).toBeVisible();
    await expectNoA11yViolations(page, 'admin accounts, small screen');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.goto('/admin/duplicate-tickets');
    await expect(page.getByTestId('duplicate-group').first()).toBeVisible();
    await expectNoA11yViolations(page, 'duplicate tickets, small screen');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  });
});
