import { expect, test, type Locator, type Page } from '@playwright/test';
import { distributeByApi, setCredits, ticketHolder, ticketTitled } from './support/distribution';
import { demo, generateInviteCode, inviteRow, signIn, userRow } from './support/session';

/**
 * The product on a phone (390 × 844): the first ticket on the first screen, the filters behind one control, the
 * navigation in a drawer, the selection bar beside the tickets rather than over them, admin tables as cards, and no
 * page wider than the screen. The demo user's tickets are only looked at; what a test changes is its own user's.
 */
const PHONE = { width: 390, height: 844 };
test.use({ viewport: PHONE });

const SEARCH_PLACEHOLDER = 'Search title, subtitle, venue, seat, account...';
const cards = (page: Page) => page.getByTestId('ticket-card');
const filtersButton = (page: Page) => page.getByRole('button', { name: /^Filters/ });

/**
 * What reaches past either side of the screen (named by tag, test id or class), leaving out what an ancestor clips
 * within the screen (a visually hidden header, a cut-off line); every box that scrolls sideways; and whether the page
 * itself does.
 */
async function tooWide(page: Page): Promise<{ scrolls: boolean; elements: string[] }> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const within = (box: DOMRect) => box.left >= -1 && box.right <= width + 1;
    const name = (el: Element) =>
      `<${el.tagName.toLowerCase()}> ${el.getAttribute('data-testid') ?? el.getAttribute('class')?.slice(0, 60) ?? ''}`;
    const clipped = (el: Element) => {
      for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
        const { overflowX } = getComputedStyle(up);
        if ((overflowX === 'hidden' || overflowX === 'clip') && within(up.getBoundingClientRect())) return true;
      }
      return false;
    };
    const elements: string[] = [];
    for (const el of document.body.querySelectorAll('*')) {
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      if (!within(box) && !clipped(el)) elements.push(`${name(el)}: ${Math.round(box.left)}..${Math.round(box.right)}`);
      const { overflowX } = getComputedStyle(el);
      if ((overflowX === 'auto' || overflowX === 'scroll') && el.scrollWidth > el.clientWidth + 1) {
        elements.push(`${name(el)} scrolls sideways (${el.scrollWidth} in ${el.clientWidth})`);
      }
    }
    return { scrolls: document.documentElement.scrollWidth > width, elements: elements.slice(0, 8) };
  });
}

async function expectFits(page: Page, screen: string) {
  expect(await tooWide(page), `${screen} at ${PHONE.width} px`).toEqual({ scrolls: false, elements: [] });
}

/** A table row shown as a card: laid out as a grid, whole on the screen, its table never scrolling sideways. */
async function expectCard(row: Locator, table: Locator) {
  await expect(row).toBeVisible();
  expect(await row.evaluate((el) => getComputedStyle(el).display)).toBe('grid');
  const box = (await row.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
  const scroller = await table.evaluate((el) => ({
    scrollWidth: el.parentElement!.scrollWidth,
    clientWidth: el.parentElement!.clientWidth,
  }));
  expect(scroller.scrollWidth).toBeLessThanOrEqual(scroller.clientWidth);
}

/** The column name written above a cell of a card (its `::before`). */
function labelAbove(cell: Locator): Promise<string> {
  return cell.evaluate((el) => getComputedStyle(el, '::before').content);
}

test('the first ticket is on the first screen; the filters open from one control and say how many are set', async ({
  page,
}) => {
  await signIn(page, demo.user);
  const first = cards(page).first();
  await expect(first).toBeVisible();
  const box = (await first.boundingBox())!;
  expect(box.y).toBeGreaterThanOrEqual(0);
  expect(box.y).toBeLessThan(PHONE.height);
  await expect(first.getByTestId('ticket-title')).toBeInViewport({ ratio: 1 });
  // Every figure of the stats row is there, two by two.
  for (const id of ['available-credits', 'total-tickets', 'distribution-rate', 'unique-venues']) {
    await expect(page.getByTestId(id)).toBeInViewport();
  }
  await expect(page.getByTestId('top-up-button')).toBeInViewport();

  const toggle = filtersButton(page);
  const panel = page.getByRole('region', { name: 'Filters' });
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(panel).toBeHidden();
  await expect(page.getByPlaceholder(SEARCH_PLACEHOLDER)).toBeHidden();

  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await expect(panel).toBeVisible();
  await expect(page.getByPlaceholder(SEARCH_PLACEHOLDER)).toBeInViewport();
  await page.getByLabel('Status').selectOption({ label: 'Not Distributed' });
  await page.getByLabel('Account').selectOption({ index: 1 });
  await expect(page.getByTestId('tickets-count')).toContainText('Showing');

  await toggle.click();
  await expect(panel).toBeHidden();
  // Closed, the control still says the list is filtered, and by how many filters.
  await expect(page.getByTestId('filters-active')).toHaveText(/2/);
  await expect(toggle).toHaveAccessibleName('Filters (2 set)');
  await expect(page.getByTestId('tickets-count')).toContainText('Showing');
  await expectFits(page, 'tickets overview, filtered');
});

test('the selection bar stays at the bottom of the screen and never covers the last ticket', async ({ page }) => {
  await signIn(page, demo.user);
  await cards(page).first().getByRole('checkbox').check();
  const bar = page.getByTestId('distribute-bar');
  await expect(bar).toBeVisible();
  // At the top of the page it is stuck to the bottom of the screen.
  let barBox = (await bar.boundingBox())!;
  expect(Math.round(barBox.y + barBox.height)).toBe(PHONE.height);
  expect(barBox.width).toBeLessThanOrEqual(PHONE.width);

  // At the end of the page the last ticket ends above it.
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect
    .poll(async () => {
      barBox = (await bar.boundingBox())!;
      const bottoms = await cards(page).evaluateAll((els) => els.map((el) => el.getBoundingClientRect().bottom));
      return Math.max(...bottoms) <= barBox.y;
    })
    .toBe(true);
  await expectFits(page, 'tickets overview with a selection');
  await page.getByRole('button', { name: 'Clear selection' }).click();
  await expect(bar).toBeHidden();
});

test('the navigation is a drawer: it opens, navigates (All Accounts too) and closes', async ({ page }) => {
  await signIn(page, demo.admin);
  const menu = page.getByRole('button', { name: 'Open menu' });
  const drawer = page.getByRole('dialog', { name: 'Menu' });
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();

  await menu.click();
  await expect(drawer).toBeVisible();
  // Slid in from the left edge, narrower than the screen.
  await expect.poll(async () => (await drawer.boundingBox())!.x).toBe(0);
  expect((await drawer.boundingBox())!.width).toBeLessThan(PHONE.width);
  await drawer.getByRole('link', { name: 'All Accounts' }).click();
  await expect(page).toHaveURL(/\/admin\/accounts$/);
  await expect(drawer).toBeHidden();
  await expect(page.getByRole('heading', { name: 'All Accounts' })).toBeVisible();

  await menu.click();
  await expect(drawer.getByRole('link', { name: 'All Accounts' })).toHaveAttribute('aria-current', 'page');
  await drawer.getByRole('button', { name: 'Close menu' }).click();
  await expect(drawer).toBeHidden();
  await expect(menu).toBeFocused();
});

test('admin tables are cards: users, invites and the audit log, with each value named', async ({ page }) => {
  test.setTimeout(120_000);
  const holder = await ticketHolder(page, 'phone-audit', { wallets: [[{ title: 'Larkspur Park' }]] });
  await setCredits(holder.userId, 5);
  await distributeByApi(holder.api, [ticketTitled(holder.tickets, 'Larkspur Park').id]);
  await holder.api.dispose();

  await signIn(page, demo.admin);
  await page.goto('/admin/users');
  // The list runs newest first, ten to a page (docs/reference.md "Admin screens"): the user this test just made is on
  // the first page however many users the tests before it made; the demo user need not be.
  const user = userRow(page, holder.user.email);
  await expectCard(user, page.getByTestId('users-table'));
  expect(await labelAbove(user.getByTestId('user-balance'))).toContain('Balance');
  expect(await labelAbove(user.getByTestId('user-status'))).toContain('Status');
  for (const name of ['Reset password', 'Ban', 'Set']) {
    const button = user.getByRole('button', { name, exact: true });
    await button.scrollIntoViewIfNeeded();
    await expect(button).toBeInViewport({ ratio: 1 });
  }
  // The headers are still the table's, for a screen reader.
  await expect(page.getByRole('columnheader', { name: 'Balance' })).toHaveCount(1);
  await expectFits(page, 'admin users');

  const code = await generateInviteCode(page, 3);
  const invite = inviteRow(page, code);
  await expectCard(invite, page.getByTestId('invites-table'));
  expect(await labelAbove(invite.getByTestId('invite-expires'))).toContain('Expires');
  for (const name of ['Copy', 'Disable', 'Delete']) {
    const button = invite.getByRole('button', { name, exact: true });
    await button.scrollIntoViewIfNeeded();
    await expect(button).toBeInViewport({ ratio: 1 });
  }
  await expectFits(page, 'admin invites');

  await page.goto(`/admin/users/${holder.userId}/audits`);
  const entry = page.getByTestId('audit-row').first();
  await expectCard(entry, page.getByTestId('audits-table'));
  expect(await labelAbove(entry.getByTestId('audit-status'))).toContain('Status');
  // The header filters stay at hand, as chips above the cards.
  const statusFilter = page.getByRole('button', { name: 'Filter Status' });
  await expect(statusFilter).toBeInViewport();
  await statusFilter.click();
  await expect(page.getByRole('checkbox', { name: 'SUCCESS' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expectFits(page, 'user audit log');
});

test('no page is wider than the screen', async ({ page, browser }) => {
  test.setTimeout(150_000);
  const holder = await ticketHolder(page, 'phone-fit', {
    wallets: [[{ title: 'Foxglove Park' }, { title: 'Yarrow Park' }]],
  });
  await setCredits(holder.userId, 5);
  const { distributions } = await distributeByApi(holder.api, [ticketTitled(holder.tickets, 'Foxglove Park').id]);
  const accountId = holder.tickets[0]!.account_id;
  await holder.api.dispose();

  for (const path of ['/login', '/register', '/waitlist']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expectFits(page, path);
  }

  await signIn(page, holder.user);
  await expect(cards(page)).toHaveCount(2);
  await expectFits(page, '/dashboard');
  await page.goto('/dashboard/accounts');
  await expect(page.getByTestId('account-card')).toHaveCount(1);
  await expectFits(page, '/dashboard/accounts');
  await page.goto(`/dashboard/accounts/${accountId}`);
  await expect(page.getByText('Foxglove Park').first()).toBeVisible();
  await expectFits(page, '/dashboard/accounts/{id}');

  // The recipient's page, in a browser of its own.
  const recipient = await browser.newPage({ viewport: PHONE });
  await recipient.goto(distributions[0]!.link);
  await expect(recipient.getByText('Foxglove Park').first()).toBeVisible();
  await expectFits(recipient, 'the recipient page');
  await recipient.close();

  await page.context().clearCookies();
  await signIn(page, demo.admin);
  await page.goto('/admin/accounts');
  // Oldest first, twenty to a page: the account this test just linked may be on a later page when the tests before it
  // linked many. The search box finds it by its owner.
  await page.getByLabel('Search accounts').fill(holder.user.email);
  const account = page.locator('[data-testid="admin-account"][data-owner="' + holder.user.email + '"]');
  await account.getByText(/^Tickets \(\d+\)/).click();
  await expect(account.getByTestId('admin-account-ticket').first()).toBeVisible();
  await expectCard(account.getByTestId('admin-account-ticket').first(), account.getByTestId('admin-account-tickets'));
  await expectFits(page, '/admin/accounts, an account open');
  for (const path of [
    '/admin/users',
    '/admin/invites',
    '/admin/duplicate-tickets',
    `/admin/users/${holder.userId}/audits`,
  ]) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByText('Loading...')).toHaveCount(0);
    await expectFits(page, path);
  }
});
