import { readFileSync } from 'node:fs';
import { expect, test, type Locator, type Page } from '@playwright/test';
import type { Ticket } from '@seatlink/contracts';
import { expectNoA11yViolations } from './support/axe';
import { datePicker, pickerParts, pickerText, typeInPicker } from './support/date-picker';
import {
  distributeByApi,
  recallByApi,
  setCredits,
  ticketHolder,
  ticketTitled,
  type TicketHolder,
} from './support/distribution';
import { createVerifiedUser, demo, signIn, userRow } from './support/session';
import { apiSession } from './support/wallet-sim';

/**
 * The User Audit Log (docs/reference.md "User Audit Log screen", "Audit entry", "Audit filter transitions",
 * "Limits and constants"): an admin reads everything that moved one user's money, access or links, in words. One user's
 * story, told once before the tests (in order):
 *
 *   0. Credits set to 15 by the admin, with a reason  Credits Set (money)
 *   1. Pine Hollow distributed alone                  Credits Spent, then Ticket Distributed: SUCCESS, single
 *   2. Quince Lane and Rowan Heath distributed         Credits Spent, then Ticket Distributed ×2: bulk (one request)
 *      -- `moment`: the replay is asked about this instant --
 *   3. Pine Hollow recalled, while the admin watches   Ticket Recalled: SUCCESS (test 1)
 *   4. Quince Lane distributed again                   Ticket Distributed: FAILED, already distributed (test 1)
 */
test.describe.configure({ mode: 'serial' });

interface Story {
  holder: TicketHolder;
  pine: Ticket;
  quince: Ticket;
  rowan: Ticket;
  pineDistributionId: string;
  /** Between the distributions and the recall, to the second. */
  moment: Date;
}
let story: Story;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test.beforeAll(async ({ browser }) => {
  const page = await browser.newPage();
  const holder = await ticketHolder(page, 'audited', {
    wallets: [
      [
        { title: 'Pine Hollow', seat: { section: 'B', row: '4', seat: '12' } },
        { title: 'Quince Lane', seat: { section: 'C', row: '1', seat: '3' } },
        { title: 'Rowan Heath' },
      ],
    ],
  });
  await page.close();
  const pine = ticketTitled(holder.tickets, 'Pine Hollow');
  const quince = ticketTitled(holder.tickets, 'Quince Lane');
  const rowan = ticketTitled(holder.tickets, 'Rowan Heath');
  await setCredits(holder.userId, 15, 'Credits for the tour');
  const single = await distributeByApi(holder.api, [pine.id]);
  await distributeByApi(holder.api, [quince.id, rowan.id], { max_clicks: 10 });
  // The replay takes a moment to the second: one clearly after the distributions and before the recall.
  await sleep(1_100);
  const moment = new Date(Math.floor(Date.now() / 1000) * 1000);
  await sleep(1_100);
  story = { holder, pine, quince, rowan, pineDistributionId: single.distributions[0]!.distribution_id, moment };
});

test.afterAll(async () => {
  await story?.holder.api.dispose();
});

const rows = (page: Page) => page.getByTestId('audit-row');
const showing = (page: Page) => page.getByTestId('audits-showing');
const chips = (page: Page) => page.getByTestId('filter-chips');

/** The rows of one ticket, of an event type ('Ticket Distributed', 'Ticket Recalled') and a status. */
function rowOf(page: Page, ticketId: string, type: string, status: 'SUCCESS' | 'FAILED'): Locator {
  return rows(page)
    .filter({ has: page.locator(`[data-testid="audit-ticket"][data-ticket-id="${ticketId}"]`) })
    .filter({ has: page.getByTestId('audit-type').getByText(type, { exact: true }) })
    .filter({ has: page.getByTestId('audit-status').getByText(status, { exact: true }) });
}

/** Opens the filter popover of a column header. */
async function openFilter(page: Page, column: string): Promise<Locator> {
  await page.getByRole('button', { name: `Filter ${column}`, exact: true }).click();
  const panel = page.getByRole('dialog', { name: `Filter ${column}` });
  await expect(panel).toBeVisible();
  return panel;
}

/** The signed-in admin on the story user's audit log, every filter cleared. */
async function openLog(page: Page) {
  await signIn(page, demo.admin);
  await page.goto(`/admin/users/${story.holder.userId}/audits`);
  await expect(page.getByRole('heading', { name: 'User Audit Log' })).toBeVisible();
  const clear = chips(page).getByRole('button', { name: 'Clear all filters' });
  if (await clear.isVisible()) await clear.click();
  await expect(chips(page)).toHaveText('No filters active');
}

/** An instant as a date picker shows it to the second, en-GB in the browser's time zone: '22/11/2026, 10:52:54'. */
function localSeconds(page: Page, at: Date): Promise<string> {
  return page.evaluate((ms) => {
    const d = new Date(ms);
    const pad = (n: number) => String(n).padStart(2, '0');
    return `${pad(d.getDate())}/${pad(d.getMonth() + 1)}/${d.getFullYear()}, ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
  }, at.getTime());
}

test("an admin opens a user's audit log from the users list and sees each distribution and recall, with its IP and details", async ({
  page,
}) => {
  const { holder, pine, quince, rowan } = story;
  await signIn(page, demo.admin);
  await page.goto('/admin/users');
  await userRow(page, holder.user.email).click();
  await expect(page).toHaveURL(new RegExp(`/admin/users/${holder.userId}/audits$`));
  await expect(page.getByRole('heading', { name: 'User Audit Log' })).toBeVisible();
  await expect(page.getByTestId('audit-user-email')).toHaveText(holder.user.email);
  await expect(page.getByRole('link', { name: 'Back' })).toHaveAttribute('href', '/admin/users');
  await expect(chips(page)).toHaveText('No filters active');
  const table = page.getByTestId('audits-table');
  for (const header of ['Event Time', 'Status', 'Event Type', 'Ticket ID', 'Distribution ID', 'IP Address'])
    await expect(table.getByRole('button', { name: `Filter ${header}`, exact: true })).toBeVisible();
  await expect(table.getByRole('columnheader', { name: 'Details', exact: true })).toBeVisible();

  // Everything, newest first: the credits set, each payment, the three distributions.
  await expect(rows(page).getByTestId('audit-type')).toHaveText([
    'Ticket Distributed',
    'Ticket Distributed',
    'Credits Spent',
    'Ticket Distributed',
    'Credits Spent',
    'Credits Set',
  ]);
  for (const time of await page.getByTestId('audit-time').allTextContents())
    expect(time).toMatch(/^\d{2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}$/);
  // In words: from what to what, by whom, why; what was paid; the tickets by title and seat, not by id.
  const set = rows(page).last();
  await expect(set.getByTestId('audit-kind')).toHaveText('Money');
  await expect(set.getByTestId('audit-words')).toHaveText('0 → 15 · by admin@seatlink.test · “Credits for the tour”');
  await expect(rows(page).nth(2).getByTestId('audit-words')).toHaveText('−10 credits for 2 links · balance 0');
  const single = rowOf(page, pine.id, 'Ticket Distributed', 'SUCCESS');
  await expect(single.getByTestId('audit-ticket-title')).toHaveText('Pine Hollow');
  expect(pine.seat.seat_info_combined).toBe('Section B, Row 4, Seat 12');
  await expect(single.getByTestId('audit-ticket-seat')).toHaveText('Section B, Row 4, Seat 12');
  await expect(single.getByTestId('audit-distribution')).toHaveText('No label');
  await expect(single.getByTestId('audit-words')).toHaveText('5 credits');
  await expect(page.getByTestId('audits-table')).not.toContainText(pine.id);
  // The kinds: the links alone, each from the address the request came from.
  const kinds = page.getByRole('group', { name: 'Kinds' });
  await kinds.getByRole('button', { name: 'Links' }).click();
  await expect(kinds.getByRole('button', { name: 'Links' })).toHaveAttribute('aria-pressed', 'true');
  await expect(chips(page).getByTestId('filter-chip')).toHaveText(['Kind: Links']);
  await expect(rows(page)).toHaveCount(3);
  for (const ip of await page.getByTestId('audit-ip').allTextContents()) expect(ip).toBe('127.0.0.1');
  await expect(rows(page).last().getByTestId('audit-ticket')).toHaveAttribute('data-ticket-id', pine.id);
  await expect(rowOf(page, pine.id, 'Ticket Distributed', 'SUCCESS').getByTestId('bulk-badge')).toHaveCount(0);
  for (const ticket of [quince, rowan])
    await expect(rowOf(page, ticket.id, 'Ticket Distributed', 'SUCCESS').getByTestId('bulk-badge')).toHaveText(
      'Bulk Action',
    );
  await expect(showing(page)).toHaveText('Showing 1 to 3 entries');
  await expect(page.getByRole('button', { name: 'Previous' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Next' })).toBeDisabled();
  await expectNoA11yViolations(page, 'user audit log');
  await kinds.getByRole('button', { name: 'Money' }).click();
  await expect(chips(page).getByTestId('filter-chip')).toHaveText(['Kind: Money, Links']);
  await expect(rows(page)).toHaveCount(6);
  await chips(page).getByRole('button', { name: 'Clear all filters' }).click();
  await expect(kinds.getByRole('button', { name: 'Money' })).toHaveAttribute('aria-pressed', 'false');
  await expect(rows(page)).toHaveCount(6);

  // A recall made while the log is open shows up without a reload.
  await recallByApi(holder.api, story.pineDistributionId);
  const recall = rowOf(page, pine.id, 'Ticket Recalled', 'SUCCESS');
  await expect(recall).toHaveCount(1);
  await expect(rows(page).first()).toContainText('Ticket Recalled');
  await expect(recall.getByTestId('audit-distribution')).toHaveAttribute(
    'data-distribution-id',
    story.pineDistributionId,
  );
  await expect(recall.getByTestId('audit-ip')).toHaveText('127.0.0.1');

  // A refused attempt is recorded too (as FAILED), and shows up without a reload as well.
  const refused = await holder.api.post('/v1/tickets/distribute', { data: { ticket_ids: [quince.id] } });
  expect(refused.status()).toBe(409);
  await expect(rows(page)).toHaveCount(8);
  const failed = rowOf(page, quince.id, 'Ticket Distributed', 'FAILED');
  await expect(failed).toHaveCount(1);
  await expect(failed.getByTestId('audit-words')).toHaveText('Ticket is already distributed');
  await expect(showing(page)).toHaveText('Showing 1 to 8 entries');
  // At 1280 px the whole table is on screen: View Details too, without scrolling sideways.
  await page.setViewportSize({ width: 1280, height: 900 });
  const box = await page.getByTestId('audits-table').evaluate((el) => ({
    scrollWidth: el.parentElement!.scrollWidth,
    clientWidth: el.parentElement!.clientWidth,
  }));
  expect(box.scrollWidth).toBeLessThanOrEqual(box.clientWidth);
  await expect(rows(page).first().getByRole('button', { name: 'View Details' })).toBeInViewport({ ratio: 1 });
  await page.screenshot({ path: test.info().outputPath('audit-log.png'), fullPage: true });

  // View Details shows everything the entry holds: the names and the ids they stand for.
  await recall.getByRole('button', { name: 'View Details' }).click();
  const details = page.getByRole('dialog', { name: 'Audit entry details' });
  await expect(details).toContainText('Ticket Recalled');
  await expect(details.getByTestId('detail-ticket')).toContainText(`Pine Hollow · ${pine.seat.seat_info_combined}`);
  await expect(details.getByTestId('detail-ticket')).toContainText(pine.id);
  await expect(details.getByTestId('detail-link')).toContainText(story.pineDistributionId);
  await expect(details).toContainText('127.0.0.1');
  await expectNoA11yViolations(page, 'audit entry details');
  await details.getByRole('button', { name: 'Close' }).click();
  await expect(details).toBeHidden();
  await failed.getByRole('button', { name: 'View Details' }).click();
  await expect(details).toContainText('ALREADY_DISTRIBUTED');
  await page.keyboard.press('Escape');
  await expect(details).toBeHidden();
  // The credits set: by whom (e-mail and id), from what to what, why.
  await set.getByRole('button', { name: 'View Details' }).click();
  await expect(details.getByTestId('detail-summary')).toHaveText(
    '0 → 15 · by admin@seatlink.test · “Credits for the tour”',
  );
  await expect(details.getByTestId('detail-by')).toContainText('admin@seatlink.test');
  await expect(details.getByTestId('detail-reason')).toHaveText('Credits for the tour');
  await expect(details.getByTestId('detail-from')).toHaveText('0');
  await expect(details.getByTestId('detail-to')).toHaveText('15');
  await page.screenshot({ path: test.info().outputPath('audit-details.png') });
  await page.keyboard.press('Escape');
});

test('filters by event type, status, ticket id and IP with chips, quick date ranges, Clear all, and says why nothing shows', async ({
  page,
}) => {
  const { pine, quince } = story;
  await openLog(page);
  await expect(rows(page)).toHaveCount(8);

  // Event type: the recall only. The popover closes on Escape.
  let panel = await openFilter(page, 'Event Type');
  await panel.getByLabel('Ticket Recalled').check();
  await expect(rows(page)).toHaveCount(1);
  await expect(rowOf(page, pine.id, 'Ticket Recalled', 'SUCCESS')).toHaveCount(1);
  await expectNoA11yViolations(page, 'audit log with a filter popover open');
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  await expect(chips(page).getByTestId('filter-chip')).toHaveText(['Event Type: Ticket Recalled']);
  await expect(page.getByRole('button', { name: 'Filter Event Type', exact: true })).toHaveAttribute(
    'data-active',
    'true',
  );

  // Status FAILED as well: no recall failed. A click outside closes the popover.
  panel = await openFilter(page, 'Status');
  await panel.getByLabel('FAILED').check();
  // (The page behind an open panel is inert, so the click is a plain one at the title, as a person's would be.)
  const title = (await page.getByRole('heading', { name: 'User Audit Log' }).boundingBox())!;
  await page.mouse.click(title.x + 10, title.y + title.height / 2);
  await expect(panel).toBeHidden();
  await expect(page.getByTestId('audits-empty')).toContainText('No audit logs found');
  await expect(page.getByTestId('audits-empty')).toContainText('Try adjusting your filters');
  await expect(showing(page)).toHaveText('Showing 0 to 0 entries');
  await expect(chips(page).getByTestId('filter-chip')).toHaveText(['Status: FAILED', 'Event Type: Ticket Recalled']);
  // Removing the event type chip leaves the failed attempts.
  await chips(page).getByRole('button', { name: 'Remove filter Event Type: Ticket Recalled' }).click();
  await expect(rows(page)).toHaveCount(1);
  await expect(rowOf(page, quince.id, 'Ticket Distributed', 'FAILED')).toHaveCount(1);

  // The filter set is kept in the browser: it is there again after a reload.
  await page.reload();
  await expect(chips(page).getByTestId('filter-chip')).toHaveText(['Status: FAILED']);
  await expect(rows(page)).toHaveCount(1);
  await chips(page).getByRole('button', { name: 'Clear all filters' }).click();
  await expect(chips(page)).toHaveText('No filters active');
  await expect(rows(page)).toHaveCount(8);

  // Ticket ID: what it starts with, applied after typing stops.
  const prefix = quince.id.slice(0, 8);
  panel = await openFilter(page, 'Ticket ID');
  await panel.getByLabel('Ticket ID').fill(prefix.toUpperCase());
  await expect(rows(page)).toHaveCount(2);
  for (const id of await page.getByTestId('audit-ticket').evaluateAll((cells) => cells.map((c) => c.dataset.ticketId)))
    expect(id).toBe(quince.id);
  await page.keyboard.press('Escape');
  await expect(chips(page).getByTestId('filter-chip')).toHaveText([`Ticket ID: ${prefix.toUpperCase()}`]);
  panel = await openFilter(page, 'Status');
  await panel.getByLabel('SUCCESS').check();
  await page.keyboard.press('Escape');
  await expect(rows(page)).toHaveCount(1);
  await expect(rowOf(page, quince.id, 'Ticket Distributed', 'SUCCESS')).toHaveCount(1);

  // IP address: nothing came from elsewhere.
  await chips(page).getByRole('button', { name: 'Clear all filters' }).click();
  await expect(rows(page)).toHaveCount(8);
  const fromHere = (await page.getByTestId('audit-ip').allTextContents()).filter((ip) => ip === '127.0.0.1').length;
  expect(fromHere).toBeGreaterThanOrEqual(5);
  panel = await openFilter(page, 'IP Address');
  await panel.getByLabel('IP Address').fill('10.');
  await expect(page.getByTestId('audits-empty')).toContainText('Try adjusting your filters');
  await panel.getByRole('button', { name: 'Clear' }).click();
  await expect(rows(page)).toHaveCount(8);
  await panel.getByLabel('IP Address').fill('127.0.');
  await expect(chips(page).getByTestId('filter-chip')).toHaveText(['IP Address: 127.0.']);
  await expect(rows(page)).toHaveCount(fromHere);
  await page.keyboard.press('Escape');

  // Quick date ranges: the last 24 hours hold it all; last (calendar) month none of it.
  const ranges = page.getByRole('group', { name: 'Quick date ranges' });
  await ranges.getByRole('button', { name: 'Last 24 hours' }).click();
  await expect(ranges.getByRole('button', { name: 'Last 24 hours' })).toHaveAttribute('aria-pressed', 'true');
  await expect(chips(page).getByTestId('filter-chip')).toHaveText(['Event Time: Last 24 hours', 'IP Address: 127.0.']);
  await expect(rows(page)).toHaveCount(fromHere);
  await ranges.getByRole('button', { name: 'Last month' }).click();
  await expect(page.getByTestId('audits-empty')).toContainText('No audit logs found');
  // 'Last month' is the previous calendar month, and says which days it took ('1 Oct 2026 – 31 Oct 2026').
  const lastMonth = await page.evaluate(() => {
    const now = new Date();
    const format = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });
    return `${format.format(new Date(now.getFullYear(), now.getMonth() - 1, 1))} – ${format.format(new Date(now.getFullYear(), now.getMonth(), 0))}`;
  });
  expect(lastMonth).toMatch(/^1 \w+ \d{4} – (28|29|30|31) \w+ \d{4}$/);
  await expect(ranges.getByTestId('quick-range-days')).toHaveText(lastMonth);
  await expect(chips(page).getByTestId('filter-chip').first()).toHaveText(`Event Time: Last month (${lastMonth})`);
  await chips(page).getByRole('button', { name: 'Remove filter Event Time: Last month' }).click();
  await expect(rows(page)).toHaveCount(fromHere);
  await expect(ranges.getByTestId('quick-range-days')).toHaveCount(0);
  for (const name of ['Last 7 days', 'Last 30 days']) {
    await ranges.getByRole('button', { name }).click();
    await expect(chips(page).getByTestId('filter-chip').first()).toHaveText(`Event Time: ${name}`);
    await expect(rows(page)).toHaveCount(fromHere);
  }
  await chips(page).getByRole('button', { name: 'Clear all filters' }).click();
  await expect(chips(page)).toHaveText('No filters active');
  await expect(ranges.getByRole('button', { name: 'Last 30 days' })).toHaveAttribute('aria-pressed', 'false');
  await expect(rows(page)).toHaveCount(8);

  // Event Time: From and To are date pickers (en-GB, 24-hour), holding the default month's bounds. A range from an
  // hour ahead to two hours ahead holds nothing; the chip names it. Escape closes the panel and gives the focus back to
  // its button.
  panel = await openFilter(page, 'Event Time');
  const from = datePicker(panel, 'From');
  const to = datePicker(panel, 'To');
  expect(await pickerParts(from)).toEqual(['day', 'month', 'year', 'hour', 'minute']);
  expect(await pickerParts(to)).toEqual(['day', 'month', 'year', 'hour', 'minute']);
  await expect.poll(() => pickerText(to)).toMatch(/^\d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}$/);
  const hoursAhead = (hours: number) =>
    page.evaluate((h) => {
      const d = new Date(Date.now() + h * 60 * 60_000);
      const pad = (n: number) => String(n).padStart(2, '0');
      return `${pad(d.getDate())}/${pad(d.getMonth() + 1)}/${d.getFullYear()}, ${pad(d.getHours())}:${pad(d.getMinutes())}`;
    }, hours);
  await typeInPicker(to, await hoursAhead(2));
  await typeInPicker(from, await hoursAhead(1));
  await expect(page.getByTestId('audits-empty')).toContainText('Try adjusting your filters');
  await expectNoA11yViolations(page, 'audit log with the Event Time panel open');
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  await expect(page.getByRole('button', { name: 'Filter Event Time', exact: true })).toBeFocused();
  await expect(chips(page).getByTestId('filter-chip')).toHaveText([/^Event Time: \d{2} \w+ \d{4}, \d{2}:\d{2} – /]);
  await chips(page).getByRole('button', { name: 'Clear all filters' }).click();
  await expect(rows(page)).toHaveCount(8);

  // A user with no actions yet.
  const quiet = await createVerifiedUser(page, 'quiet');
  const quietApi = await apiSession(quiet);
  const quietId = ((await (await quietApi.get('/v1/me')).json()) as { id: string }).id;
  await quietApi.dispose();
  await page.goto(`/admin/users/${quietId}/audits`);
  await expect(chips(page)).toHaveText('No filters active');
  await expect(page.getByTestId('audits-empty')).toContainText('No audit logs found');
  await expect(page.getByTestId('audits-empty')).toContainText('This user has no recorded actions yet');
  await expectNoA11yViolations(page, 'audit log of a user without actions');
});

test('pages through the entries, downloads the filtered view as CSV, and replays the user at a moment', async ({
  page,
}) => {
  const { holder, pine, quince, rowan, moment } = story;
  await openLog(page);
  await expect(rows(page)).toHaveCount(8);

  // Pages of three (the limit is part of the filter set the browser keeps; the page holds 50 by default).
  await page.evaluate(() => localStorage.setItem('userAuditFilters', JSON.stringify({ limit: 3 })));
  await page.reload();
  const previous = page.getByRole('button', { name: 'Previous' });
  const next = page.getByRole('button', { name: 'Next' });
  await expect(showing(page)).toHaveText('Showing 1 to 3 entries');
  await expect(previous).toBeDisabled();
  await next.click();
  await expect(showing(page)).toHaveText('Showing 4 to 6 entries');
  await expect(previous).toBeEnabled();
  await next.click();
  await expect(showing(page)).toHaveText('Showing 7 to 8 entries');
  await expect(rows(page)).toHaveCount(2);
  await expect(next).toBeDisabled();
  await expect(rows(page).getByTestId('audit-type')).toHaveText(['Credits Spent', 'Credits Set']);
  await previous.click();
  await expect(showing(page)).toHaveText('Showing 4 to 6 entries');
  // Any other change starts again at the first page.
  const panel = await openFilter(page, 'Status');
  await panel.getByLabel('SUCCESS').check();
  await page.keyboard.press('Escape');
  await expect(showing(page)).toHaveText('Showing 1 to 3 entries');
  await chips(page).getByRole('button', { name: 'Clear all filters' }).click();
  await expect(showing(page)).toHaveText('Showing 1 to 8 entries');

  // The CSV holds the filtered view: here the distributions, every page of them.
  const typePanel = await openFilter(page, 'Event Type');
  await typePanel.getByLabel('Ticket Distributed').check();
  await page.keyboard.press('Escape');
  await expect(rows(page)).toHaveCount(4);
  const downloading = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Export CSV' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`audit-${holder.userId}.csv`);
  const lines = readFileSync((await download.path())!, 'utf8')
    .replace(/^\uFEFF/, '')
    .trim()
    .split(/\r?\n/);
  expect(lines[0]).toBe(
    'Event Time,Status,Event Type,Ticket ID,Distribution ID,IP Address,Bulk Action,Details,Kind,Summary',
  );
  const body = lines.slice(1);
  expect(body).toHaveLength(4);
  for (const line of body) expect(line).toMatch(/^\d{4}-\d{2}-\d{2}T[\d:.]+Z,(SUCCESS|FAILED),Ticket Distributed,/);
  expect(body.filter((l) => l.includes(',FAILED,'))).toHaveLength(1);
  expect(body.filter((l) => l.includes(`,${quince.id},`))).toHaveLength(2);
  expect(body.find((l) => l.includes(`,${rowan.id},`))).toMatch(/,127\.0\.0\.1,yes,/);
  expect(body.find((l) => l.includes(`,${pine.id},`))).toMatch(/,127\.0\.0\.1,no,/);
  // The ids, and the words a person reads.
  expect(body.find((l) => l.includes(`,${pine.id},`))).toContain(
    `,Links,"Pine Hollow (${pine.seat.seat_info_combined}) · 5 credits"`,
  );
  await chips(page).getByRole('button', { name: 'Clear all filters' }).click();

  // Replay: the user as they stood between the distributions and the recall.
  const replay = page.getByTestId('replay-panel');
  await expect(replay.getByRole('heading', { name: 'Replay' })).toBeVisible();
  const field = datePicker(replay, 'Moment');
  expect(await pickerParts(field)).toEqual(['day', 'month', 'year', 'hour', 'minute', 'second']);
  await typeInPicker(field, await localSeconds(page, new Date(Date.now() + 60 * 60_000)));
  await replay.getByRole('button', { name: 'Show' }).click();
  await expect(replay.getByText('Pick a moment that has passed')).toBeVisible();
  await typeInPicker(field, await localSeconds(page, moment));
  await expect.poll(() => pickerText(field)).toBe(await localSeconds(page, moment));
  await replay.getByRole('button', { name: 'Show' }).click();
  const result = replay.getByTestId('replay-result');
  await expect(result).toHaveAttribute('data-at', moment.toISOString());
  await expect(result.getByTestId('replay-balance')).toHaveText('0 credits');
  await expect(result.getByTestId('replay-linked-count')).toHaveText('3 of 3');
  await expect(result.locator(`[data-testid="replay-ticket"][data-ticket-id="${pine.id}"]`)).toHaveAttribute(
    'data-linked',
    'true',
  );
  // Every change of the credits up to then, oldest first, with the balance each left.
  const credits = result.getByRole('table', { name: 'Credit changes' });
  await expect(credits.getByRole('columnheader')).toHaveText(['Time', 'What', 'Change', 'Balance', 'Card payment']);
  const changes = credits.getByTestId('replay-credit-change');
  await expect(changes.getByTestId('credit-change-what')).toHaveText([
    'Set by admin@seatlink.test: “Credits for the tour”',
    'Spent on links',
    'Spent on links',
  ]);
  await expect(changes.getByTestId('credit-change-amount')).toHaveText(['+15', '-5', '-10']);
  await expect(changes.getByTestId('credit-change-balance')).toHaveText(['15', '10', '0']);
  // Their access then: not banned, no second factor, no key or webhook acting for them.
  const access = result.getByTestId('replay-access');
  await expect(access.getByTestId('replay-banned')).toHaveText('Not banned');
  for (const part of ['replay-factors', 'replay-api-keys', 'replay-webhooks'])
    await expect(access.getByTestId(part)).toHaveText('None');
  await expectNoA11yViolations(page, 'audit log with a replay');

  // Now: the recall has happened (a recall gives no credits back).
  await typeInPicker(field, await localSeconds(page, new Date()));
  await replay.getByRole('button', { name: 'Show' }).click();
  await expect(result.getByTestId('replay-linked-count')).toHaveText('2 of 3');
  await expect(result.locator(`[data-testid="replay-ticket"][data-ticket-id="${pine.id}"]`)).toHaveAttribute(
    'data-linked',
    'false',
  );
  await expect(changes).toHaveCount(3);
});
