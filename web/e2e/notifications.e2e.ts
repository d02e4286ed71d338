import { expect, test } from '@playwright/test';
import { expectNoA11yViolations } from './support/axe';
import {
  distributeByApi,
  RecipientPhones,
  setCredits,
  ticketHolder,
  ticketTitled,
  type TicketHolder,
} from './support/distribution';
import { signIn } from './support/session';

/**
 * The notification centre: the bell in the signed-in frame counts what happened to the holder's links while they
 * looked elsewhere, live in every open tab; its panel tells of each, and reading them in one tab clears the count in
 * the others.
 */

let holder: TicketHolder | undefined;
const phones = new RecipientPhones();
test.afterEach(async () => {
  await phones.closeAll();
  await holder?.api.dispose();
  holder = undefined;
});

test('a claim arrives live in another tab; reading it there clears the bell in both', async ({ page, browser }) => {
  holder = await ticketHolder(page, 'bell', { wallets: [[{ title: 'Maple Harriers' }, { title: 'Nettle Athletic' }]] });
  const maple = ticketTitled(holder.tickets, 'Maple Harriers');
  await setCredits(holder.userId, 10);
  const [made] = (await distributeByApi(holder.api, [maple.id], { max_clicks: 2, label: 'for Sam' })).distributions;
  await signIn(page, holder.user);
  const other = await page.context().newPage();
  await other.goto('/dashboard');
  const bell = page.getByTestId('notification-bell').locator('visible=true');
  const otherBell = other.getByTestId('notification-bell').locator('visible=true');
  await expect(otherBell).toHaveAccessibleName('Notifications');
  await expect(otherBell.getByTestId('notification-count')).toHaveCount(0);

  // A recipient claims on a phone of their own, twice: the link reaches its limit.
  const phone = await phones.open(browser);
  for (let i = 0; i < 2; i++) {
    await phone.goto(made!.link);
    await phone.getByRole('button', { name: 'Add to wallet' }).click();
    await expect(phone.getByText('Saved to your wallet')).toBeVisible();
  }

  // Neither tab was reloaded: the count came over the socket.
  await expect(otherBell).toHaveAccessibleName('Notifications, 2 unread');
  await expect(otherBell.getByTestId('notification-count')).toHaveText('2');
  await expect(bell).toHaveAccessibleName('Notifications, 2 unread');

  await otherBell.click();
  const panel = other.getByRole('dialog', { name: 'Notifications' });
  const items = panel.getByTestId('notification');
  await expect(items).toHaveCount(2);
  await expect(panel).toContainText('2 new claims on Maple Harriers (for Sam)');
  await expect(panel).toContainText('The link for Maple Harriers (for Sam) reached its limit of 2 clicks');
  await expect(items.first()).toHaveAttribute('data-read', 'false');
  await expectNoA11yViolations(other, 'notifications panel');

  // Mark all as read here: the other tab's bell clears too.
  await panel.getByRole('button', { name: 'Mark all as read' }).click();
  await expect(items.first()).toHaveAttribute('data-read', 'true');
  await expect(otherBell).toHaveAccessibleName('Notifications');
  await expect(bell).toHaveAccessibleName('Notifications');
  await expect(bell.getByTestId('notification-count')).toHaveCount(0);
  // Escape closes the panel and gives the focus back to the bell.
  await other.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  await expect(otherBell).toBeFocused();
  await other.close();
});

test('on a phone the bell sits in the top bar; a notification pressed is read and leads to its page', async ({
  page,
  browser,
}) => {
  holder = await ticketHolder(page, 'bellphone', { wallets: [[{ title: 'Oakham Town' }]] });
  const oakham = ticketTitled(holder.tickets, 'Oakham Town');
  await setCredits(holder.userId, 10);
  const [made] = (await distributeByApi(holder.api, [oakham.id], { max_clicks: null })).distributions;
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, holder.user);
  await page.goto('/dashboard/accounts');
  const phone = await phones.open(browser);
  await phone.goto(made!.link);
  await phone.getByRole('button', { name: 'Add to wallet' }).click();
  await expect(phone.getByText('Saved to your wallet')).toBeVisible();

  const bell = page.getByRole('banner').getByTestId('notification-bell');
  await expect(bell).toHaveAccessibleName('Notifications, 1 unread');
  await bell.click();
  const panel = page.getByRole('dialog', { name: 'Notifications' });
  const box = await panel.boundingBox();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(390);
  await panel.getByRole('button', { name: /New claim on Oakham Town/ }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(bell).toHaveAccessibleName('Notifications');
});

test('the settings page chooses which notifications also come by e-mail, and keeps the choice', async ({ page }) => {
  holder = await ticketHolder(page, 'bellmail', { wallets: [[{ title: 'Poplar United' }]] });
  await signIn(page, holder.user);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
  await expect(page).toHaveURL(/\/dashboard\/settings$/);
  await expect(page.getByRole('heading', { name: 'E-mail notifications' })).toBeVisible();
  const claimed = page.getByLabel('A link is claimed');
  await expect(claimed).toHaveValue('off');
  await expect(page.getByRole('button', { name: 'Save Changes' })).toBeDisabled();
  await claimed.selectOption({ label: 'E-mail at once' });
  await page.getByLabel('Credits are added by a payment').selectOption({ label: 'Daily digest' });
  await expectNoA11yViolations(page, 'settings page');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('Notification settings saved')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save Changes' })).toBeDisabled();
  await page.reload();
  await expect(page.getByLabel('A link is claimed')).toHaveValue('immediate');
  await expect(page.getByLabel('Credits are added by a payment')).toHaveValue('daily');
  await expect(page.getByLabel('A link reaches its click limit')).toHaveValue('off');
});
