import { expect, test } from '@playwright/test';
import { LINK_ACTIVITY_TEXTS } from '@seatlink/contracts';
import { expectNoA11yViolations } from './support/axe';
import { signIn } from './support/session';
import {
  distributeByApi,
  RecipientPhones,
  setCredits,
  ticketHolder,
  ticketTitled,
  type TicketHolder,
} from './support/distribution';

/**
 * Link activity (docs/user-guide.md "Link activity"): a recipient page opened on a phone tells the link's owner it was
 * opened, once per phone; the owner's /dashboard/activity shows the opens and claims of the day and the links opened
 * and not claimed.
 */

let holder: TicketHolder | undefined;
const phones = new RecipientPhones();
test.afterEach(async () => {
  await holder?.api.dispose();
  holder = undefined;
  await phones.closeAll();
});

test('two phones open a link: the owner sees 2 opens and 0 claims; a claim makes it 1 and the link leaves "opened, not claimed"', async ({
  page,
  browser,
}) => {
  holder = await ticketHolder(page, 'opens', { wallets: [[{ title: 'Heron Athletic', venue: 'Heron Park' }]] });
  const heron = ticketTitled(holder.tickets, 'Heron Athletic');
  await setCredits(holder.userId, 5);
  const [link] = (await distributeByApi(holder.api, [heron.id], { label: 'for Sam' })).distributions;

  await signIn(page, holder.user);
  await page.goto('/dashboard/activity');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(LINK_ACTIVITY_TEXTS.title);
  await expect(page.getByTestId('activity-opens')).toHaveText('0');
  await expect(page.getByTestId('opened-not-claimed-empty')).toHaveText(LINK_ACTIVITY_TEXTS.openedNotClaimedEmpty);
  await expect(page.getByTestId('expiring-unclaimed-empty')).toBeVisible();

  const first = await phones.open(browser);
  await first.goto(link!.link);
  await expect(first.getByRole('heading', { level: 1 })).toHaveText('Heron Athletic');
  // A reload on the same phone is not another open.
  await first.reload();
  await expect(first.getByRole('heading', { level: 1 })).toHaveText('Heron Athletic');
  const second = await phones.open(browser);
  await second.goto(link!.link);
  await expect(second.getByRole('heading', { level: 1 })).toHaveText('Heron Athletic');

  const opens = page.getByTestId('activity-opens');
  await expect(async () => {
    await page.reload();
    await expect(opens).toHaveText('2', { timeout: 1000 });
  }).toPass({ timeout: 15_000 });
  await expect(page.getByTestId('activity-claims')).toHaveText('0');
  const opened = page.getByTestId('opened-not-claimed-link');
  await expect(opened).toHaveCount(1);
  await expect(opened).toContainText('Heron Athletic');
  await expect(opened).toContainText('for Sam');
  await expect(opened).toContainText(LINK_ACTIVITY_TEXTS.opensCount(2));
  await expectNoA11yViolations(page, 'link activity');
  // Dark, its bars and lists keep their contrast.
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(page.locator('html')).toHaveClass(/\bdark\b/);
  await expectNoA11yViolations(page, 'link activity, dark');
  await page.screenshot({ path: test.info().outputPath('link-activity-dark.png'), fullPage: true });
  await page.emulateMedia({ colorScheme: 'light' });

  await second.getByRole('button', { name: 'Add to wallet' }).click();
  await expect(second).toHaveURL(/\/wallet-sim\/save\/[^/]+$/);
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId('activity-claims')).toHaveText('1', { timeout: 1000 });
  }).toPass({ timeout: 15_000 });
  await expect(page.getByTestId('activity-opens')).toHaveText('2');
  await expect(page.getByTestId('opened-not-claimed-link')).toHaveCount(0);
  await expect(page.getByTestId('opened-not-claimed-empty')).toBeVisible();
});
