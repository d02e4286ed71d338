import { expect, test } from '@playwright/test';
import type { Ticket } from '@seatlink/contracts';
import { ticketCardHeight } from '../src/features/tickets/ticket-card-height';
import {
  distributeByApi,
  listTickets,
  PERSON_USER_AGENT,
  setCredits,
  ticketHolder,
  ticketTitled,
  type TicketHolder,
} from './support/distribution';
import { signIn } from './support/session';

/**
 * The grid lays its rows out from the cards' data before any is drawn (docs/architecture.md, the tickets overview's
 * windowing): a card whose link reached its limit, or is labelled and claimed by name, is as tall as laid out at every
 * width, so no row moves as it scrolls into view.
 */

let holder: TicketHolder | undefined;
test.afterEach(async () => {
  await holder?.api.dispose();
  holder = undefined;
});

test('cards with a reached limit, a label, a claimant and a long expiry are as tall as the grid laid them out', async ({
  page,
}) => {
  holder = await ticketHolder(page, 'heights', {
    wallets: [
      [
        { title: 'Alder Athletic' },
        { title: 'Birch Borough' },
        { title: 'Cedar City Rovers of the Northern Counties League' },
        { title: 'Dogwood' },
      ],
    ],
  });
  const [alder, birch, cedar] = [
    'Alder Athletic',
    'Birch Borough',
    'Cedar City Rovers of the Northern Counties League',
  ].map((title) => ticketTitled(holder!.tickets, title));
  await setCredits(holder.userId, 30);
  const far = new Date(Date.now() + 300 * 24 * 3600 * 1000).toISOString();
  const made = [
    ...(await distributeByApi(holder.api, [alder!.id], { max_clicks: 1 })).distributions,
    ...(await distributeByApi(holder.api, [birch!.id], { max_clicks: 1, label: 'for Sam', expiry_date: far }))
      .distributions,
    ...(await distributeByApi(holder.api, [cedar!.id], { max_clicks: 2, expiry_date: far })).distributions,
  ];
  // A named claim on each: the first two reach their limit.
  for (const link of made) {
    const code = link.link.split('/l/')[1]!;
    const res = await page.request.post(`/v1/links/${code}/claim`, {
      headers: { 'user-agent': PERSON_USER_AGENT },
      data: { name: 'Samantha Longname-Example' },
    });
    expect(res.status()).toBe(200);
  }
  await signIn(page, holder.user);
  const tickets: Ticket[] = await listTickets(holder.api);
  const byId = new Map(tickets.map((t) => [t.id, t]));
  await expect(page.getByTestId('limit-reached')).toHaveCount(2);
  for (const width of [1280, 1024, 1920, 375, 768, 1440]) {
    await page.setViewportSize({ width, height: 2400 });
    const grid = page.getByTestId('tickets-grid');
    await expect(grid.getByTestId('ticket-card')).toHaveCount(4);
    // Each row drawn, with its cards, read at once (a row is drawn again as the grid settles at a new width).
    const misfits = async () =>
      (
        await grid.locator('[data-index]').evaluateAll((rows) =>
          rows.map((row) => ({
            ids: [...row.querySelectorAll('[data-testid="ticket-card"]')].map((c) => c.getAttribute('data-ticket-id')!),
            height: row.getBoundingClientRect().height,
          })),
        )
      )
        .map(({ ids, height }) => ({
          ids,
          height,
          laidOut: Math.max(...ids.map((id) => ticketCardHeight(byId.get(id)!))),
        }))
        .filter((row) => row.height !== row.laidOut);
    await expect.poll(misfits, { message: `rows as laid out at ${width} px` }).toEqual([]);
    await page.screenshot({ path: test.info().outputPath(`cards-${width}.png`), fullPage: true });
  }
});
