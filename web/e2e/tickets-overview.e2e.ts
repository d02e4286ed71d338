import { expect, test, type Page } from '@playwright/test';
import type { Ticket, TicketsResponse } from '@seatlink/contracts';
import { ticketCardHeight } from '../src/features/tickets/ticket-card-height';
import { manyTickets } from '../src/testing/tickets';
import { expectNoA11yViolations } from './support/axe';
import { demo, signIn } from './support/session';

/**
 * The Tickets Overview's display part (docs/reference.md "Tickets Overview screen") over the demo user's synced tickets
 * (alex@ and sam@wallet.test, one pass held by both: a duplicate; other specs may have linked more). Read only; the
 * expected figures come from GET /v1/tickets at the start of each test.
 */

const cards = (page: Page) => page.getByTestId('ticket-card');

/** The number of tickets the count line says are shown ('Showing 5 of 28 tickets'). */
async function shownCount(page: Page): Promise<number> {
  const text = (await page.getByTestId('tickets-count').textContent()) ?? '';
  const shown = /Showing (\d[\d,]*) of/.exec(text)?.[1];
  if (!shown) throw new Error(`no count in '${text}'`);
  return Number(shown.replace(/,/g, ''));
}

/** Every rendered row of the grid is the height the grid gave it: its tallest card's, as its data says. */
async function expectRowsAsLaidOut(page: Page, tickets: readonly Ticket[]) {
  const byId = new Map(tickets.map((t) => [t.id, t]));
  const grid = page.getByTestId('tickets-grid');
  await expect(grid).toHaveAttribute('data-columns', page.viewportSize()!.width < 768 ? '1' : /[2-4]/);
  const rows = await grid.locator('[data-index]').all();
  expect(rows.length).toBeGreaterThan(1);
  for (const row of rows) {
    const ids = await row
      .getByTestId('ticket-card')
      .evaluateAll((all) => all.map((card) => card.getAttribute('data-ticket-id')!));
    const laidOut = Math.max(...ids.map((id) => ticketCardHeight(byId.get(id)!)));
    expect((await row.boundingBox())!.height, `the row of ${ids.join(', ')}`).toBe(laidOut);
  }
}

async function titles(page: Page): Promise<string[]> {
  return (await page.getByTestId('ticket-title').allTextContents()).map((t) => t.trim());
}

test('filters by search, account, status and event, clears them, and sorts the list view', async ({ page }) => {
  // Tall enough that every demo ticket is in view (the grid and the list render only what is near the viewport).
  await page.setViewportSize({ width: 1280, height: 4800 });
  await signIn(page, demo.user);
  const { tickets } = (await (await page.request.get('/v1/tickets')).json()) as TicketsResponse;
  const total = tickets.length;
  const duplicates = tickets.filter((t) => t.is_duplicate).length;
  expect(total).toBeGreaterThan(5);
  expect(duplicates).toBeGreaterThan(0);
  await expect(page.getByTestId('total-tickets')).toHaveText(total.toLocaleString('en-GB'));
  await expect(page.getByTestId('tickets-count')).toHaveText(`${total} tickets`);
  await expect(cards(page)).toHaveCount(total);
  await expect(page.getByTestId('distribution-rate')).toHaveText('0%');
  await expect(page.getByText(`0 of ${total} distributed`)).toBeVisible();
  await expect(page.getByTestId('unique-venues')).toHaveText(String(new Set(tickets.map((t) => t.venue_name)).size));
  // A duplicate carries its banner and cannot be distributed; the others have no link yet.
  const duplicate = page.locator('[data-testid="ticket-card"][data-status="2"]').first();
  await expect(duplicate.getByTestId('duplicate-banner')).toHaveText('Duplicate: Cannot be distributed');
  await expect(duplicate).toContainText('Cannot distribute duplicate tickets');
  await expect(page.locator('[data-testid="ticket-card"][data-status="0"]').first()).toContainText(
    'No distribution link generated',
  );
  await expectNoA11yViolations(page, 'tickets overview, grid');
  // Each row of cards is as tall as the grid laid it out from its cards' data (one-line titles and two-line ones, the
  // duplicate's banner), so a row scrolling into view never changes the page's height. On a phone a row is one card.
  for (const width of [1280, 375, 1280]) {
    await page.setViewportSize({ width, height: 4800 });
    await expectRowsAsLaidOut(page, tickets);
  }

  // Search: title, subtitle, venue, seat and account e-mail.
  const search = page.getByPlaceholder('Search title, subtitle, venue, seat, account...');
  await search.fill('comets');
  await expect(page.getByTestId('tickets-count')).toContainText(`of ${total} tickets`);
  // The count is shown before the grid has let go of the cards filtered out: wait for the grid to match it.
  await expect(cards(page)).toHaveCount(await shownCount(page));
  for (const card of await cards(page).all()) await expect(card).toContainText(/comets/i);
  await search.fill('no ticket is called this');
  await expect(page.getByTestId('tickets-empty')).toContainText('No Tickets Found');
  await page.getByRole('button', { name: 'Clear Filters' }).click();
  await expect(search).toHaveValue('');
  await expect(cards(page)).toHaveCount(total);

  // Account: each account named by name and e-mail.
  await page.getByLabel('Account').selectOption({ label: 'Sam Okafor (sam@wallet.test)' });
  await expect(page.getByTestId('tickets-count')).toContainText(`of ${total} tickets`);
  await expect(cards(page)).toHaveCount(await shownCount(page));
  for (const account of await page.getByTestId('ticket-account').allTextContents())
    expect(account).toBe('sam@wallet.test');
  await page.getByLabel('Account').selectOption({ label: 'All Accounts' });

  // Status: duplicates are in neither Distributed nor Not Distributed
  // (docs/reference.md "Ticket and link transitions").
  await page.getByLabel('Status').selectOption({ label: 'Not Distributed' });
  await expect(cards(page)).toHaveCount(total - duplicates);
  await expect(page.locator('[data-testid="ticket-card"][data-status="2"]')).toHaveCount(0);
  await page.getByLabel('Status').selectOption({ label: 'Distributed' });
  await expect(page.getByTestId('tickets-empty')).toContainText('No Tickets Found');
  await page.getByRole('button', { name: 'Clear Filters' }).click();
  await expect(page.getByLabel('Status')).toHaveValue('all');

  // Event: each distinct title.
  await page.getByLabel('Event').selectOption({ label: 'Northgate Rovers' });
  await expect(cards(page)).toHaveCount(tickets.filter((t) => t.title === 'Northgate Rovers').length);
  expect(new Set(await titles(page))).toEqual(new Set(['Northgate Rovers']));
  await page.getByLabel('Event').selectOption({ label: 'All Events' });
  await expect(cards(page)).toHaveCount(total);

  // The list view: sortable by Event, Account and Status.
  await page.getByRole('button', { name: 'List view' }).click();
  await expect(page.getByRole('button', { name: 'List view' })).toHaveAttribute('aria-pressed', 'true');
  const table = page.getByTestId('tickets-table');
  await expect(table).toBeVisible();
  await expect(table.getByRole('columnheader')).toHaveText([
    /Event/,
    'Seat Info',
    'Next Game',
    /Account/,
    /Status/,
    'Link/Actions',
  ]);
  const rows = page.getByTestId('ticket-row');
  await expect(rows).toHaveCount(total);
  await page.getByTestId('sort-event').click();
  await expect(table.getByRole('columnheader', { name: 'Event' })).toHaveAttribute('aria-sort', 'ascending');
  const sorted = await titles(page);
  expect(sorted).toEqual([...sorted].sort((a, b) => a.localeCompare(b, 'en-GB', { sensitivity: 'base' })));
  await page.getByTestId('sort-status').click();
  await expect(rows.last().getByTestId('ticket-status')).toHaveText('Duplicate');
  await page.getByTestId('sort-status').click();
  await expect(table.getByRole('columnheader', { name: 'Status' })).toHaveAttribute('aria-sort', 'descending');
  await expect(rows.first().getByTestId('ticket-status')).toHaveText('Duplicate');
  await page.getByTestId('sort-account').click();
  const accounts = await page.getByTestId('ticket-account').allTextContents();
  expect(accounts).toEqual([...accounts].sort());
  await expectNoA11yViolations(page, 'tickets overview, list');
});

test.describe('on a small screen', () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test('the view toggle is hidden and the grid is forced', async ({ page }) => {
    await signIn(page, demo.user);
    await expect(cards(page).first()).toBeVisible();
    await expect(page.getByRole('button', { name: 'List view' })).toHaveCount(0);
    await expect(page.getByTestId('tickets-grid')).toHaveAttribute('data-columns', '1');
    await expectNoA11yViolations(page, 'tickets overview, small screen');
    // Chosen on a wide screen, the list gives way to the grid when the window narrows.
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByRole('button', { name: 'List view' }).click();
    await expect(page.getByTestId('tickets-table')).toBeVisible();
    await page.setViewportSize({ width: 375, height: 812 });
    await expect(page.getByTestId('tickets-grid')).toBeVisible();
    await expect(page.getByTestId('tickets-table')).toHaveCount(0);
  });
});

test('10,000 tickets: only what is in view is rendered, and scrolling and filtering stay quick', async ({ page }) => {
  const tickets = manyTickets(10_000);
  // As a server that answers no version gives it (the whole list, whatever the query).
  await page.route(
    (url) => url.pathname === '/v1/tickets',
    (route) => route.fulfill({ json: { tickets } }),
  );
  await signIn(page, demo.user);
  await expect(page.getByTestId('total-tickets')).toHaveText('10,000');
  await expect(cards(page).first()).toBeVisible();
  expect(await cards(page).count()).toBeLessThan(80);
  await expect(page.getByTestId('tickets-count')).toHaveText('10,000 tickets');

  // The last ticket is reached by scrolling, and only a window of cards exists at any time.
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await expect(page.locator('[data-ticket-id="ticket-9999"]')).toBeVisible();
  expect(await cards(page).count()).toBeLessThan(80);

  const started = Date.now();
  await page.getByPlaceholder('Search title, subtitle, venue, seat, account...').fill('block 107, row h');
  await expect(page.getByTestId('tickets-count')).toContainText('of 10,000 tickets');
  console.log(`[10,000 tickets in the browser] search to result: ${Date.now() - started} ms`);

  await page.getByRole('button', { name: 'List view' }).click();
  await page.getByPlaceholder('Search title, subtitle, venue, seat, account...').fill('');
  await expect(page.getByTestId('tickets-table')).toHaveAttribute('aria-rowcount', '10001');
  expect(await page.getByTestId('ticket-row').count()).toBeLessThan(80);
  await page.getByTestId('sort-status').click();
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect(page.getByTestId('ticket-row').first().getByTestId('ticket-status')).toHaveText('Not Distributed');
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await expect(page.getByTestId('ticket-row').last().getByTestId('ticket-status')).toHaveText('Duplicate');
  expect(await page.getByTestId('ticket-row').count()).toBeLessThan(80);
});

test('counts agree with their nouns and are grouped; a rate of some is never "0%", nor one short of all "100%"', async ({
  page,
}) => {
  // 10,026 tickets, 2 of them with a link: as a server that answers no version gives them (the whole list).
  const many: Ticket[] = manyTickets(10_026).map((t) => ({
    ...t,
    is_duplicate: false,
    is_distributed: false,
    distribution: null,
  }));
  const linked = (t: Ticket, n: number): Ticket => ({
    ...t,
    is_distributed: true,
    distribution: {
      distribution_id: `d-w${n}`,
      id: `d-w${n}`,
      link: `https://seatlink.test/l/w${n}`,
      clicks: 0,
      max_clicks: null,
      expiry: null,
      label: `for guest w${n}`,
      has_pin: false,
      pin_locked: false,
      claimed_by: null,
      recipient: null,
    },
  });
  many[0] = linked(many[0]!, 0);
  many[1] = linked(many[1]!, 1);
  let tickets: Ticket[] = many;
  await page.route(
    (url) => url.pathname === '/v1/tickets',
    (route) => route.fulfill({ json: { tickets } }),
  );
  await signIn(page, demo.user);
  await expect(page.getByTestId('total-tickets')).toHaveText('10,026');
  await expect(page.getByTestId('tickets-count')).toHaveText('10,026 tickets');
  // 2 of 10,026 is 0.02 %: some, so not '0%'.
  await expect(page.getByTestId('distribution-rate')).toHaveText('<1%');
  await expect(page.getByText('2 of 10,026 distributed', { exact: true })).toBeVisible();

  // Every ticket selected (the list's header box): the bar counts them grouped, and the links among them agree.
  await page.getByRole('button', { name: 'List view' }).click();
  await page.getByRole('checkbox', { name: 'Select all tickets' }).check();
  const bar = page.getByTestId('distribute-bar');
  await expect(bar.getByTestId('selected-count')).toHaveText('10,026 selected');
  await expect(bar.getByTestId('edit-links')).toHaveText('Edit 2 links');
  await expect(bar.getByTestId('recall-links')).toHaveText('Recall 2 links');
  await expect(bar.getByTestId('distribute-reason')).toHaveText(/^Need [\d,]*,\d{3} credits \(have [\d,.]+\)$/);
  await expectNoA11yViolations(page, 'tickets overview, 10,026 selected');

  // One ticket narrowed to by the search: 'Showing 1 of 10,026 tickets'; ticked, it is one ticket and one link.
  const search = page.getByPlaceholder('Search title, subtitle, venue, seat, account...');
  await page.getByRole('button', { name: 'Clear selection' }).click();
  await search.fill('guest w0');
  await expect(page.getByTestId('ticket-row')).toHaveCount(1);
  await expect(page.getByTestId('tickets-count')).toHaveText('Showing 1 of 10,026 tickets');
  await page.getByRole('checkbox', { name: 'Select all tickets' }).check();
  await expect(bar.getByTestId('selected-count')).toHaveText('1 selected');
  await expect(bar.getByTestId('edit-links')).toHaveText('Edit 1 link');
  await expect(bar.getByTestId('recall-links')).toHaveText('Recall 1 link');

  // A list of one ticket, none distributed: '1 ticket', and '0%' for none.
  tickets = [many[2]!];
  await page.reload();
  await expect(page.getByTestId('tickets-count')).toHaveText('1 ticket');
  await expect(page.getByTestId('distribution-rate')).toHaveText('0%');
  await expect(page.getByText('0 of 1 distributed', { exact: true })).toBeVisible();

  // All but one of 1,000 distributed: 99.9 %, which is not all.
  tickets = many.slice(0, 1_000).map((t, i) => (i === 999 ? t : linked(t, i)));
  await page.reload();
  await expect(page.getByTestId('tickets-count')).toHaveText('1,000 tickets');
  await expect(page.getByTestId('distribution-rate')).toHaveText('>99%');
  await expect(page.getByText('999 of 1,000 distributed', { exact: true })).toBeVisible();
});

test('a big list coming in never shows a moment of "No Tickets Found"', async ({ page }) => {
  // Whether the empty state was ever in the page, from its very first script on.
  await page.addInitScript(() => {
    new MutationObserver(() => {
      if (document.querySelector('[data-testid="tickets-empty"]')) document.documentElement.dataset.sawEmpty = 'yes';
    }).observe(document, { subtree: true, childList: true });
  });
  const tickets = manyTickets(5_000);
  await page.route(
    (url) => url.pathname === '/v1/tickets',
    (route) => route.fulfill({ json: { tickets } }),
  );
  await signIn(page, demo.user);
  await expect(cards(page).first()).toBeVisible();
  await expect(page.getByTestId('tickets-count')).toHaveText('5,000 tickets');
  const sawEmpty = () => page.evaluate(() => document.documentElement.dataset.sawEmpty ?? 'no');
  expect(await sawEmpty()).toBe('no');
  // And on a page load of its own.
  await page.reload();
  await expect(cards(page).first()).toBeVisible();
  await expect(page.getByTestId('total-tickets')).toHaveText('5,000');
  expect(await sawEmpty()).toBe('no');
});

test.describe('reads started with the navigation (lib/route-reads.ts)', () => {
  const readOf = (url: string) => {
    const path = new URL(url).pathname;
    return path === '/v1/tickets' || path === '/v1/accounts' ? path : null;
  };

  test('the ticket list and the accounts are asked for while the page’s code is still coming', async ({ page }) => {
    await signIn(page, demo.user);
    // A fresh load of the overview whose own code is held back until both reads have been asked for.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/tickets-overview-route-[\w-]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    const reads = new Set<string>();
    const bothAsked = new Promise<void>((resolve) =>
      page.on('request', (request) => {
        const read = readOf(request.url());
        if (read) reads.add(read);
        if (reads.size === 2) resolve();
      }),
    );
    await page.goto('/dashboard', { waitUntil: 'commit' });
    await bothAsked;
    release();
    await expect(cards(page).first()).toBeVisible();
    await expect(page.getByTestId('tickets-count')).toContainText(/\d+ tickets/);
  });

  test('the live updates’ connection, while a read ahead is still coming, leaves the page free to run', async ({
    page,
  }) => {
    await signIn(page, demo.user);
    // The overview's code and the ticket list both held back: the socket connects meanwhile, and its connection reads
    // every query again while the list read ahead of its page (no page shows it yet) is still under way.
    let releaseCode!: () => void;
    const codeHeld = new Promise<void>((resolve) => (releaseCode = resolve));
    await page.route(/\/assets\/tickets-overview-route-[\w-]+\.js$/, async (route) => {
      await codeHeld;
      await route.continue();
    });
    let releaseList!: () => void;
    const listHeld = new Promise<void>((resolve) => (releaseList = resolve));
    let listAsked!: () => void;
    const listRead = new Promise<void>((resolve) => (listAsked = resolve));
    await page.route(
      (url) => url.pathname === '/v1/tickets',
      async (route) => {
        listAsked();
        await listHeld;
        await route.continue();
      },
    );
    const connected = new Promise<void>((resolve) =>
      page.on('websocket', (ws) =>
        ws.on('framereceived', (frame) => {
          if (String(frame.payload).startsWith('40')) resolve();
        }),
      ),
    );
    await page.goto('/dashboard', { waitUntil: 'commit' });
    await listRead;
    await connected;
    // Past the connection's refresh (lib/live-refresh.ts: 300 ms after it), the page still answers.
    await page.waitForTimeout(1_000);
    const answers = await Promise.race([
      page.evaluate(() => 'answers'),
      new Promise((resolve) => setTimeout(() => resolve('frozen'), 5_000)),
    ]);
    expect(answers).toBe('answers');
    releaseList();
    releaseCode();
    await expect(cards(page).first()).toBeVisible();
  });

  test('a visitor whose session has ended asks for nothing and goes to sign in', async ({ browser }) => {
    const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
    try {
      await context.addCookies([
        { name: 'seatlink_session', value: 'ended', url: process.env.E2E_BASE_URL!, httpOnly: true, sameSite: 'Lax' },
      ]);
      const page = await context.newPage();
      const reads: string[] = [];
      page.on('request', (request) => {
        const read = readOf(request.url());
        if (read) reads.push(read);
      });
      await page.goto('/dashboard');
      await expect(page).toHaveURL(/\/login/);
      await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
      expect(reads).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
