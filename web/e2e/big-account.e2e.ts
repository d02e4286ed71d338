import { expect, request, test, type APIRequestContext, type Page } from '@playwright/test';
import type { Ticket, TicketsResponse } from '@seatlink/contracts';
import { passOf } from '../../bench/browser/passes';
import { distributeByApi, setCredits } from './support/distribution';
import { createVerifiedUser, signIn, type NewUser } from './support/session';
import { apiSession, createWallet, linkWallet, simControlHeaders } from './support/wallet-sim';
import { pooled } from './support/pooled';

/**
 * The Tickets Overview of a real big account: a user holding 10,000 tickets, made as the dashboard benchmark makes
 * them (bench/browser/passes.ts: two wallets of 5,000 varied passes, 1 % of the second wallet's the same passes as
 * the first's), linked and synced by the product. Only a window of the tickets is ever in the page; scrolling reaches
 * the last; search and sort put the right tickets first; and a live push about one ticket (a link made elsewhere)
 * changes that ticket on screen by a read of what changed (`since=`), never by reading the 10,000 again.
 */

test.describe.configure({ mode: 'serial', timeout: 180_000 });

const WALLETS = 2;
const PER_WALLET = 5_000;
const TOTAL = WALLETS * PER_WALLET;
/** Far below 10,000: the grid and the list render only what is near the viewport. */
const WINDOW = 200;
const SEARCH_PLACEHOLDER = 'Search title, subtitle, venue, seat, account...';

let holder: NewUser & { id: string };
/** The user's tickets as GET /v1/tickets lists them (the overview's unsorted order). */
let listed: Ticket[];

const cards = (page: Page) => page.getByTestId('ticket-card');
const rows = (page: Page) => page.getByTestId('ticket-row');

async function readTickets(api: APIRequestContext): Promise<Ticket[]> {
  const res = await api.get('/v1/tickets');
  expect(res.status()).toBe(200);
  return ((await res.json()) as TicketsResponse).tickets;
}

test.beforeAll(async ({ browser }) => {
  test.setTimeout(900_000);
  const page = await browser.newPage();
  const user = await createVerifiedUser(page, 'big-holder');
  await page.close();
  const api = await apiSession(user);
  try {
    const startOfDay = new Date().setUTCHours(0, 0, 0, 0);
    for (let w = 0; w < WALLETS; w++) {
      const wallet = await createWallet(`big${w + 1}`, 'Holder');
      // A context of its own per wallet: a connection kept alive from the first wallet's passes sits idle while that
      // wallet is linked, and one the server closes just as it is used again is a reset, not an answer.
      const control = await request.newContext({ baseURL: process.env.E2E_BASE_URL });
      try {
        await pooled(
          Array.from({ length: PER_WALLET }, (_, i) => i),
          16,
          async (i) => {
            const res = await control.post(`/wallet-sim/control/wallets/${encodeURIComponent(wallet.email)}/passes`, {
              headers: simControlHeaders(),
              data: passOf(w, i, startOfDay),
            });
            expect(res.status(), await res.text()).toBe(201);
          },
        );
      } finally {
        await control.dispose();
      }
      await linkWallet(api, wallet);
    }
    await expect
      .poll(async () => (listed = await readTickets(api)).length, {
        message: `${TOTAL} tickets synced`,
        timeout: 600_000,
        intervals: [3_000],
      })
      .toBe(TOTAL);
    const me = (await (await api.get('/v1/me')).json()) as { id: string };
    holder = { ...user, id: me.id };
  } finally {
    await api.dispose();
  }
});

/** Opens the overview and waits until every ticket is in (the count line says so). */
async function openOverview(page: Page) {
  await signIn(page, holder);
  await expect(page.getByTestId('tickets-count')).toHaveText('10,000 tickets', { timeout: 60_000 });
}

test('10,000 real tickets: a window of them in the page, the last one reached by scrolling', async ({ page }) => {
  await openOverview(page);
  await expect(cards(page).first()).toHaveAttribute('data-ticket-id', listed[0]!.id);
  expect(await cards(page).count()).toBeLessThan(WINDOW);
  // The grid lays every row out by its cards' data before rendering it; a row measured as it scrolls into view is
  // the height it was given, so the page's height, and the scroll bar, never move under the user's finger.
  const gridHeight = () => page.getByTestId('tickets-grid').evaluate((grid) => grid.getBoundingClientRect().height);
  const laidOut = await gridHeight();

  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await expect(page.locator(`[data-testid="ticket-card"][data-ticket-id="${listed.at(-1)!.id}"]`)).toBeInViewport();
  expect(await cards(page).count()).toBeLessThan(WINDOW);
  await page.evaluate(async () => {
    window.scrollTo(0, document.body.scrollHeight / 2);
    // Two frames: the rows that came into view are rendered, observed and measured.
    for (let i = 0; i < 2; i++) await new Promise((resolve) => requestAnimationFrame(resolve));
  });
  expect(await gridHeight()).toBe(laidOut);
  await expect(page.locator(`[data-testid="ticket-card"][data-ticket-id="${listed[0]!.id}"]`)).toHaveCount(0);
});

/**
 * In the page: scrolls to `y`, waits a frame, and answers what each rendered card (grid) or row (list) shows, with the
 * place in the list it says it has.
 */
async function scrollAndRead({ y, view }: { y: number; view: 'grid' | 'list' }) {
  window.scrollTo(0, y);
  await new Promise((resolve) => requestAnimationFrame(resolve));
  return [
    ...document.querySelectorAll(
      view === 'grid' ? '[data-testid="tickets-grid"] [role="listitem"]' : '[data-testid="ticket-row"]',
    ),
  ].map((item) => ({
    position:
      view === 'grid' ? Number(item.getAttribute('aria-posinset')) : Number(item.getAttribute('aria-rowindex')) - 1,
    id: (item.matches('[data-ticket-id]') ? item : item.querySelector('[data-ticket-id]'))?.getAttribute(
      'data-ticket-id',
    ),
    title: item.querySelector('[data-testid="ticket-title"]')?.textContent,
    checkbox: item.querySelector('[data-testid="select-ticket"]')?.getAttribute('aria-label'),
  }));
}

test('scrolled in jumps, each card and row shows its own ticket, and focus stays with its ticket', async ({ page }) => {
  // Rows pass their elements to the rows scrolling in (lib/use-page-virtualizer.ts `useRowSlots`): what a place shows
  // must be all of one ticket, and a focused checkbox must not come to stand for another ticket.
  await openOverview(page);
  for (const view of ['grid', 'list'] as const) {
    if (view === 'list') await page.getByRole('button', { name: 'List view' }).click();
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.locator(`[data-ticket-id="${listed[0]!.id}"]`).getByTestId('select-ticket').focus();
    const height = await page.evaluate(() => document.body.scrollHeight);
    // A frame at each of 25 places a window or more apart, as a scroll bar dragged fast goes.
    for (let i = 1; i <= 25; i++) {
      const shown = await page.evaluate(scrollAndRead, { y: (height * i) / 27, view });
      expect(shown.length).toBeGreaterThan(0);
      for (const item of shown) {
        const ticket = listed[item.position - 1]!;
        expect(item).toEqual({
          position: item.position,
          id: ticket.id,
          title: ticket.title,
          checkbox: `Select ${ticket.title}`,
        });
      }
    }
    const focusedTicket = await page.evaluate(
      () => document.activeElement?.closest('[data-ticket-id]')?.getAttribute('data-ticket-id') ?? null,
    );
    expect([null, listed[0]!.id]).toContain(focusedTicket);
  }
});

test('at rest in the middle of the list, the grid has a row beyond each edge, laid out edge to edge', async ({
  page,
}) => {
  await openOverview(page);
  const grid = page.getByTestId('tickets-grid');
  const rowsLaidOut = () =>
    page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('[data-testid="tickets-grid"] [data-index]')]
        .map(
          (row) =>
            ({ index: Number(row.dataset.index), ...row.getBoundingClientRect().toJSON() }) as DOMRect & {
              index: number;
            },
        )
        .sort((a, b) => a.index - b.index),
    );
  const expectEdgeToEdge = async () => {
    const columns = await grid.getAttribute('data-columns');
    // The jump rendered the rows in view alone; once the page is still, one more beyond each edge.
    await expect
      .poll(async () => {
        const laidOut = await rowsLaidOut();
        return laidOut[0]!.bottom <= 0 && laidOut.at(-1)!.top >= (await page.evaluate(() => window.innerHeight));
      })
      .toBe(true);
    const laidOut = await rowsLaidOut();
    for (let i = 1; i < laidOut.length; i++) {
      expect(laidOut[i]!.index).toBe(laidOut[i - 1]!.index + 1);
      // The grid's gap between rows, and no overlap: each row is as tall as the virtualizer placed it.
      expect(Math.round(laidOut[i]!.top - laidOut[i - 1]!.bottom), `rows at ${columns} columns`).toBe(16);
    }
  };
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight / 3));
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight / 2));
  await expectEdgeToEdge();
  // Narrowed, the rows hold other cards: the sizes measured at the wider grid's column count are forgotten.
  const wide = await grid.getAttribute('data-columns');
  await page.setViewportSize({ width: 900, height: 800 });
  await expect(grid).not.toHaveAttribute('data-columns', wide!);
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight / 2 + 1000));
  await expectEdgeToEdge();
});

test('while the rest of the list comes after its first page, the count line says so', async ({ page }) => {
  // The pages after the first are held until the line has been read.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/v1\/tickets\?.*after=/, async (route) => {
    await held;
    await route.continue();
  });
  await signIn(page, holder);
  await expect(page.getByTestId('tickets-count')).toHaveText('100 tickets · loading…', { timeout: 60_000 });
  release();
  await expect(page.getByTestId('tickets-count')).toHaveText('10,000 tickets', { timeout: 60_000 });
  await expect(page.getByTestId('tickets-loading-rest')).toHaveCount(0);
});

test('a link made elsewhere changes its one ticket on screen by a read of what changed', async ({ page }) => {
  const ticket = listed.find((t) => !t.is_duplicate && !t.distribution)!;
  await openOverview(page);
  const card = page.locator(`[data-testid="ticket-card"][data-ticket-id="${ticket.id}"]`);
  await expect(card).toHaveAttribute('data-status', '0');

  // Every read of the ticket list from now on, with the number of tickets it answered.
  const reads: Array<Promise<{ since: string | null; tickets: number }>> = [];
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (url.pathname !== '/v1/tickets' || response.request().method() !== 'GET') return;
    reads.push(
      response.json().then(
        (body: TicketsResponse) => ({ since: url.searchParams.get('since'), tickets: body.tickets.length }),
        // A read the page gave up on (a newer one replaced it) has no body to count.
        () => ({ since: url.searchParams.get('since'), tickets: 0 }),
      ),
    );
  });

  await setCredits(holder.id, 5);
  const api = await apiSession(holder);
  try {
    await distributeByApi(api, [ticket.id]);
  } finally {
    await api.dispose();
  }
  await expect(card).toHaveAttribute('data-status', '1');
  await expect(card).not.toContainText('No distribution link generated');

  const answered = await Promise.all(reads);
  expect(answered.length).toBeGreaterThan(0);
  for (const read of answered) {
    expect(read.since, 'the list is read by changes, not whole').not.toBeNull();
    expect(read.tickets).toBeLessThan(WINDOW);
  }
  await expect(page.getByTestId('tickets-count')).toHaveText('10,000 tickets');
});

test('search and sort put the right tickets first', async ({ page }) => {
  await openOverview(page);
  const search = page.getByPlaceholder(SEARCH_PLACEHOLDER);

  // 'west stand': a section, so only some seats; the first of them in the list's order leads.
  const matching = listed.filter((t) =>
    [t.title, t.subtitle, t.venue_name, t.seat?.seat_info_combined, t.account_email]
      .filter(Boolean)
      .join('\n')
      .toLowerCase()
      .includes('west stand'),
  );
  expect(matching.length).toBeGreaterThan(0);
  expect(matching.length).toBeLessThan(TOTAL);
  await search.fill('west stand');
  await expect(page.getByTestId('tickets-count')).toHaveText(
    `Showing ${matching.length.toLocaleString('en-GB')} of 10,000 tickets`,
  );
  await expect(cards(page).first()).toHaveAttribute('data-ticket-id', matching[0]!.id);
  expect(await cards(page).count()).toBeLessThan(WINDOW);
  await search.fill('');
  await expect(page.getByTestId('tickets-count')).toHaveText('10,000 tickets');

  // By event (title, then subtitle), ties in the list's order; pressed again, the other way round.
  const collator = new Intl.Collator('en-GB', { sensitivity: 'base', numeric: true });
  const byEvent = (a: Ticket, b: Ticket) =>
    collator.compare(a.title, b.title) || collator.compare(a.subtitle ?? '', b.subtitle ?? '');
  const ascending = listed.slice().sort(byEvent);
  const descending = listed.slice().sort((a, b) => byEvent(b, a));
  await page.getByRole('button', { name: 'List view' }).click();
  await expect(page.getByTestId('tickets-table')).toHaveAttribute('aria-rowcount', String(TOTAL + 1));
  await page.getByTestId('sort-event').click();
  await expect(rows(page).first()).toHaveAttribute('data-ticket-id', ascending[0]!.id);
  await page.getByTestId('sort-event').click();
  await expect(rows(page).first()).toHaveAttribute('data-ticket-id', descending[0]!.id);
  expect(await rows(page).count()).toBeLessThan(WINDOW);

  // The end of the sorted list is reached by scrolling too.
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await expect(page.locator(`[data-testid="ticket-row"][data-ticket-id="${descending.at(-1)!.id}"]`)).toBeInViewport();
  expect(await rows(page).count()).toBeLessThan(WINDOW);
});
