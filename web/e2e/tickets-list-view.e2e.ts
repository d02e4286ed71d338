import { expect, test, type Page } from '@playwright/test';
import type { Ticket } from '@seatlink/contracts';
import { ticketCardHeight } from '../src/features/tickets/ticket-card-height';
import { manyTickets } from '../src/testing/tickets';
import { expectNoA11yViolations } from './support/axe';
import { demo, signIn } from './support/session';

/**
 * The Tickets Overview's list at a laptop's width and its sort by the next game's date, and the Sort by control of a
 * phone (docs/reference.md "Tickets Overview screen"), over a list the test gives (GET /v1/tickets answered here).
 */

/** A small square logo, as a wallet pass carries one. */
const LOGO =
  'data:image/svg+xml,' +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><rect width="64" height="64" fill="#4f46e5"/></svg>',
  );

/** 30 characters: a name the Event column shows whole at 1,280 px. */
const LONG_NAME = 'Eastbridge Titans vs Northgate';

function listOf(count: number): Ticket[] {
  const tickets = manyTickets(count).map((t) => ({ ...t, logo: LOGO }));
  tickets[0] = { ...tickets[0]!, title: LONG_NAME, subtitle: 'Season Ticket 2026/27 · Hospitality' };
  return tickets;
}

async function serve(page: Page, tickets: readonly Ticket[]) {
  await page.route(
    (url) => url.pathname === '/v1/tickets',
    (route) => route.fulfill({ json: { tickets } }),
  );
}

/** The ticket ids in the order the page shows them (rows or cards). */
async function shownIds(page: Page, testId: 'ticket-row' | 'ticket-card'): Promise<string[]> {
  return page.getByTestId(testId).evaluateAll((all) => all.map((el) => el.getAttribute('data-ticket-id')!));
}

/** The ids of `tickets` by their next game's date: soonest first (latest first descending), undated last, ties in order. */
function byDate(tickets: readonly Ticket[], direction: 'asc' | 'desc'): string[] {
  const sign = direction === 'asc' ? 1 : -1;
  const dated = tickets.filter((t) => t.metadata.next_game_date);
  const undated = tickets.filter((t) => !t.metadata.next_game_date);
  const at = (t: Ticket) => Date.parse(t.metadata.next_game_date!);
  return [
    ...dated
      .map((t, i) => ({ t, i }))
      .sort((a, b) => sign * (at(a.t) - at(b.t)) || a.i - b.i)
      .map((e) => e.t.id),
    ...undated.map((t) => t.id),
  ];
}

test('at 1,280 px the Event column shows a 30-character name whole, and the list sorts by date', async ({ page }) => {
  const tickets = listOf(24);
  await serve(page, tickets);
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, demo.user);
  await page.getByRole('button', { name: 'List view' }).click();
  const table = page.getByTestId('tickets-table');
  await expect(table).toBeVisible();
  // The grid's Sort by control gives way to the headers.
  await expect(page.getByTestId('sort-control')).toHaveCount(0);

  const title = page.locator(`[data-ticket-id="${tickets[0]!.id}"]`).getByTestId('ticket-title');
  await expect(title).toHaveText(LONG_NAME);
  const fit = await title.evaluate((el) => ({
    width: el.scrollWidth <= el.clientWidth,
    height: el.scrollHeight <= el.clientHeight,
  }));
  expect(fit, 'the name is not clipped').toEqual({ width: true, height: true });
  // Event takes the room the others leave: wider than Seat Info, Next Game and Account each.
  const widths = await table
    .getByRole('columnheader')
    .evaluateAll((all) => all.map((th) => th.getBoundingClientRect().width));
  expect(widths[0]!).toBeGreaterThan(Math.max(widths[1]!, widths[2]!, widths[3]!) * 1.5);
  // Every row stays the height the window counts on (the name on two lines fits it).
  for (const row of await page.getByTestId('ticket-row').all()) expect((await row.boundingBox())!.height).toBe(68);

  // Sort by the next game's date: the Next Game header.
  const rows = 'ticket-row' as const;
  await page.getByTestId('sort-date').click();
  await expect(table.getByRole('columnheader', { name: 'Next Game' })).toHaveAttribute('aria-sort', 'ascending');
  await page.setViewportSize({ width: 1280, height: 2400 });
  await expect(page.getByTestId(rows)).toHaveCount(tickets.length);
  await expect.poll(() => shownIds(page, rows)).toEqual(byDate(tickets, 'asc'));
  await page.getByTestId('sort-date').click();
  await expect(table.getByRole('columnheader', { name: 'Next Game' })).toHaveAttribute('aria-sort', 'descending');
  await expect.poll(() => shownIds(page, rows)).toEqual(byDate(tickets, 'desc'));
  await expectNoA11yViolations(page, 'tickets overview, list at 1,280 px');
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the Sort by control sorts the cards, by date and back', async ({ page }) => {
    const tickets = listOf(12);
    await serve(page, tickets);
    await signIn(page, demo.user);
    const sortBy = page.getByRole('combobox', { name: 'Sort by' });
    await expect(sortBy).toBeVisible();
    await expect(sortBy).toBeInViewport();
    const descending = page.getByRole('button', { name: 'Descending' });
    await expect(descending).toBeDisabled();

    await sortBy.selectOption({ label: 'Sort: Date' });
    await page.setViewportSize({ width: 390, height: 6000 });
    await expect(page.getByTestId('ticket-card')).toHaveCount(tickets.length);
    await expect.poll(() => shownIds(page, 'ticket-card')).toEqual(byDate(tickets, 'asc'));
    await descending.click();
    await expect(descending).toHaveAttribute('aria-pressed', 'true');
    await expect.poll(() => shownIds(page, 'ticket-card')).toEqual(byDate(tickets, 'desc'));

    // Event, and back to the list's own order.
    // Event keeps the direction chosen: names from Z to A.
    await sortBy.selectOption({ label: 'Sort: Event' });
    const byEventDesc = [...tickets]
      .sort((a, b) => b.title.localeCompare(a.title, 'en-GB', { sensitivity: 'base', numeric: true }))
      .map((t) => t.title);
    await expect(page.getByTestId('ticket-title')).toHaveText(byEventDesc);
    await sortBy.selectOption({ label: 'Sort: list order' });
    await expect.poll(() => shownIds(page, 'ticket-card')).toEqual(tickets.map((t) => t.id));
    await expect(descending).toBeDisabled();
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoA11yViolations(page, 'tickets overview, phone sort');
  });
});

test('a link more than one person can save the seat with is said so: in the settings, and on its card', async ({
  page,
}) => {
  const [open, one, two, unlimited, reached] = manyTickets(5).map((t, i) => ({
    ...t,
    id: `seat-${i}`,
    title: `Seat test ${i}`,
    is_duplicate: false,
    is_distributed: i > 0,
    distribution:
      i === 0
        ? null
        : {
            distribution_id: `00000000-0000-4000-8000-00000000000${i}`,
            id: `00000000-0000-4000-8000-00000000000${i}`,
            link: `https://seatlink.test/l/seat${i}`,
            clicks: i === 4 ? 2 : 0,
            max_clicks: [null, 1, 2, null, 2][i]!,
            expiry: null,
            label: null,
            has_pin: false,
            pin_locked: false,
          },
  })) as [Ticket, Ticket, Ticket, Ticket, Ticket];
  await serve(page, [open, one, two, unlimited, reached]);
  await page.setViewportSize({ width: 1280, height: 2400 });
  await signIn(page, demo.user);
  const card = (t: Ticket) => page.locator(`[data-testid="ticket-card"][data-ticket-id="${t.id}"]`);
  const WARNING = 'More than one person can save this seat with this link.';

  // On the cards: a live link with a limit above 1, or none, carries the marker; a limit of 1, or one reached, not.
  await expect(card(two).getByTestId('seat-sharing-marker')).toHaveAttribute('title', WARNING);
  await expect(card(two).getByRole('img', { name: WARNING })).toBeVisible();
  await expect(card(unlimited).getByTestId('seat-sharing-marker')).toBeVisible();
  await expect(card(one).getByTestId('link-clicks')).toHaveText('0 / 1');
  await expect(card(one).getByTestId('seat-sharing-marker')).toHaveCount(0);
  await expect(card(reached).getByTestId('limit-reached')).toBeVisible();
  await expect(card(reached).getByTestId('seat-sharing-marker')).toHaveCount(0);
  // The marker takes no line of its own: a row of cards with it is the height the grid laid it out at. (The row of the
  // link at its limit is left out: its 'Limit Reached' badge wraps the expiry onto a line of its own, marker or not.)
  const byId = new Map([open, one, two, unlimited, reached].map((t) => [t.id, t]));
  let checked = 0;
  for (const gridRow of await page.getByTestId('tickets-grid').locator('[data-index]').all()) {
    const inRow = await gridRow
      .getByTestId('ticket-card')
      .evaluateAll((all) => all.map((el) => el.getAttribute('data-ticket-id')!));
    if (inRow.includes(reached.id) || !inRow.some((id) => id === two.id || id === unlimited.id)) continue;
    checked++;
    const laidOut = Math.max(...inRow.map((id) => ticketCardHeight(byId.get(id)!)));
    expect((await gridRow.boundingBox())!.height, `the row of ${inRow.join(', ')}`).toBe(laidOut);
  }
  expect(checked).toBeGreaterThan(0);
  // And in the list's rows.
  await page.getByRole('button', { name: 'List view' }).click();
  const row = (t: Ticket) => page.locator(`[data-testid="ticket-row"][data-ticket-id="${t.id}"]`);
  await expect(row(two).getByTestId('seat-sharing-marker')).toBeVisible();
  await expect(row(one).getByTestId('seat-sharing-marker')).toHaveCount(0);
  await page.getByRole('button', { name: 'Grid view' }).click();

  // Making a link: unlimited at first, so warned; a limit of 2 warns, 1 does not. Nothing is refused.
  await card(open).getByTestId('select-ticket').check();
  await page.getByTestId('distribute-button').click();
  const modal = page.getByRole('dialog', { name: 'Distribution Settings' });
  const warning = modal.getByTestId('seat-sharing-warning');
  await expect(warning).toHaveText(WARNING);
  await modal.getByRole('switch', { name: 'Unlimited access' }).click();
  await expect(warning).toHaveCount(0);
  const limit = modal.getByLabel('Maximum number of clicks');
  await limit.fill('2');
  await expect(warning).toHaveText(WARNING);
  await expect(warning).toBeVisible();
  await expectNoA11yViolations(page, 'Distribution Settings, seat warning');
  await limit.fill('1');
  await expect(warning).toHaveCount(0);
  await expect(modal.getByRole('button', { name: 'Generate Link' })).toBeEnabled();
  await modal.getByRole('button', { name: 'Cancel' }).click();
  await expect(modal).toBeHidden();

  // Editing a link of one click: raised to 2, warned.
  await card(one).getByRole('button', { name: 'Edit Link' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Link' });
  await expect(edit.getByLabel('Maximum number of clicks')).toHaveValue('1');
  await expect(edit.getByTestId('seat-sharing-warning')).toHaveCount(0);
  await edit.getByLabel('Maximum number of clicks').fill('2');
  await expect(edit.getByTestId('seat-sharing-warning')).toHaveText(WARNING);
});
