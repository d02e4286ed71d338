import { expect, test, type Page } from '@playwright/test';
import { expectNoA11yViolations } from './support/axe';
import {
  distributeByApi,
  RecipientPhones,
  setCredits,
  ticketHolder,
  ticketTitled,
  type TicketHolder,
} from './support/distribution';
import { demo, signIn } from './support/session';
import { addPass, addRawPass, apiSession, createWallet, linkWallet, setWalletErrorRate } from './support/wallet-sim';

/**
 * Text from the wallet provider is outside input: what the simulator sends with control characters, bidirectional
 * overrides or unusable fields must not reach a page as sent. The recipient page shows the ticket in logical order;
 * the Accounts page tells its owner about passes left out and about a sync that gave up.
 */

let holder: TicketHolder | undefined;
const phones = new RecipientPhones();
test.afterEach(async () => {
  await holder?.api.dispose();
  holder = undefined;
  await phones.closeAll();
});

/** Where the first and the last character of an element's text are drawn, left to right. */
async function drawnOrder(page: Page, testId: string): Promise<{ text: string; firstLeft: number; lastLeft: number }> {
  return page.getByTestId(testId).evaluate((element) => {
    const node = element.firstChild!;
    const text = node.textContent ?? '';
    const left = (index: number) => {
      const range = document.createRange();
      range.setStart(node, index);
      range.setEnd(node, index + 1);
      return range.getBoundingClientRect().left;
    };
    return { text, firstLeft: left(0), lastLeft: left(text.length - 1) };
  });
}

test('the recipient page shows a venue sent with a right-to-left override in logical order', async ({
  page,
  browser,
}) => {
  holder = await ticketHolder(page, 'rtl', {
    wallets: [[{ title: 'Kestrel\u0000 County', subtitle: 'Cup\u202E Final', venue: '\u202EKestrel Park' }]],
  });
  const ticket = ticketTitled(holder.tickets, 'Kestrel County');
  expect(ticket).toMatchObject({ subtitle: 'Cup Final', venue_name: 'Kestrel Park' });
  await setCredits(holder.userId, 5);
  const [link] = (await distributeByApi(holder.api, [ticket.id])).distributions;

  const phone = await phones.open(browser);
  await phone.goto(link!.link);
  await expect(phone.getByRole('heading', { level: 1 })).toHaveText('Kestrel County');
  await expect(phone.getByTestId('link-subtitle')).toHaveText('Cup Final');
  await expect(phone.getByTestId('link-venue')).toHaveText('Kestrel Park');
  // Drawn as it reads: 'K' on the left, 'k' on the right (an override would draw it reversed, 'kraP lertseK').
  const venue = await drawnOrder(phone, 'link-venue');
  expect(venue.text).toBe('Kestrel Park');
  expect(venue.firstLeft).toBeLessThan(venue.lastLeft);
  await expectNoA11yViolations(phone, 'recipient page');
});

test('the Accounts page shows a sync that gave up until one goes through, and counts passes that could not be read', async ({
  page,
}) => {
  test.setTimeout(150_000);
  const wallet = await createWallet('Oddsender');
  await addPass(wallet.email, { title: 'Readable Match', venue: 'Quayside Stadium' });
  await addRawPass(wallet.email, 'zz-unreadable', { id: 'zz-unreadable', event: { title: { nested: true } } });
  const api = await apiSession(demo.user);
  try {
    const account = await linkWallet(api, wallet);
    // The wallet service goes down as the account is linked: its syncs and their retries fail, and after five in a row
    // the card says so.
    await setWalletErrorRate(1);
    try {
      await signIn(page, demo.user);
      await page.getByRole('link', { name: 'Accounts' }).click();
      const card = page.locator(`[data-testid="account-card"][data-account-id="${account.id}"]`);
      const banner = card.getByTestId('sync-failed');
      await expect(banner).toBeVisible({ timeout: 60_000 });
      await expect(banner).toContainText('Sync Failed');
      await expect(banner).toContainText('The wallet service could not be reached, so this account has not synced.');
      await expect(card.getByTestId('auth-required')).toHaveCount(0);
      await expectNoA11yViolations(page, 'accounts overview, a sync that gave up');
    } finally {
      await setWalletErrorRate(0);
    }
    // Back up: the next try goes through, the banner goes without a reload, the readable pass is there and the other
    // is counted.
    const card = page.locator(`[data-testid="account-card"][data-account-id="${account.id}"]`);
    await expect(card.getByTestId('sync-failed')).toHaveCount(0, { timeout: 60_000 });
    await expect(card.getByTestId('account-ticket-count')).toHaveText('1');
    await expect(card.getByTestId('skipped-passes')).toHaveText(
      '1 pass from this wallet could not be read and is not shown.',
    );
  } finally {
    await api.dispose();
  }
});
