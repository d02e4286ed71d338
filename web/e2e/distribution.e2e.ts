import { expect, test, type Download, type Locator, type Page } from '@playwright/test';
import { expectNoA11yViolations } from './support/axe';
import { datePicker, pickerParts, pickerText, typeInPicker } from './support/date-picker';
import {
  distributeByApi,
  listTickets,
  localDateTimeIn,
  PERSON_USER_AGENT,
  setCredits,
  ticketCard,
  ticketHolder,
  ticketTitled,
  type TicketHolder,
} from './support/distribution';
import { screenshot } from './support/payments';
import { signIn } from './support/session';

/**
 * Distribution on the Tickets Overview (docs/reference.md "Tickets Overview screen", "Distribution Settings dialog",
 * "Link states", "Link rules", "Fallback texts", "Success and empty texts"): selecting tickets, the settings, the
 * credits they cost, the link on each card with Copy, Open, the QR code and Recall, duplicates, too few credits, and
 * clicks arriving live. Each test has a user and wallets of its own.
 */

let holder: TicketHolder | undefined;
test.afterEach(async () => {
  await holder?.api.dispose();
  holder = undefined;
});

/**
 * docs/reference.md "Tickets Overview screen": a link's expiry as day, short month and 24-hour time, in the browser's
 * time zone.
 */
function expiryText(page: Page, iso: string): Promise<string> {
  return page.evaluate(
    (at) =>
      new Intl.DateTimeFormat('en-GB', {
        day: '2-digit',
        month: 'short',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      }).format(new Date(at)),
    iso,
  );
}

/** Holds the next request to `pattern` until the answer's function is called, to see what shows while it runs. */
async function holdNextRequest(page: Page, pattern: string): Promise<() => void> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(
    pattern,
    async (route) => {
      await released;
      await route.continue();
    },
    { times: 1 },
  );
  return release;
}

const distributeBar = (page: Page) => page.getByTestId('distribute-bar');
const distributeButton = (page: Page) => distributeBar(page).getByTestId('distribute-button');
const settingsModal = (page: Page) => page.getByRole('dialog', { name: 'Distribution Settings' });
const linkArea = (card: Locator) => card.getByTestId('ticket-link-area');

/** The bytes of a download. */
async function readDownload(download: Download): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

test('distributes the selected tickets with an expiry and a click limit, debits the credits, and shows each link with Copy, Open and Recall', async ({
  page,
  context,
}) => {
  holder = await ticketHolder(page, 'distributor', {
    wallets: [[{ title: 'Alder Rovers' }, { title: 'Birch Athletic' }, { title: 'Cedar City' }]],
  });
  const alder = ticketTitled(holder.tickets, 'Alder Rovers');
  const birch = ticketTitled(holder.tickets, 'Birch Athletic');
  const cedar = ticketTitled(holder.tickets, 'Cedar City');
  await setCredits(holder.userId, 12);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signIn(page, holder.user);
  await expect(page.getByTestId('available-credits')).toHaveText('12');
  await expect(page.getByTestId('distribution-rate')).toHaveText('0%');
  await expect(linkArea(ticketCard(page, alder.id))).toHaveText('No distribution link generated');

  // A card is selected by a click on it, or by its checkbox (docs/reference.md "Tickets Overview screen").
  await ticketCard(page, alder.id).getByTestId('ticket-title').click();
  await expect(ticketCard(page, alder.id)).toHaveAttribute('data-selected', 'true');
  await expect(distributeBar(page).getByTestId('selected-count')).toHaveText('1 selected');
  await expect(distributeButton(page)).toHaveText('Generate Link');
  await ticketCard(page, birch.id).getByRole('checkbox', { name: 'Select Birch Athletic' }).check();
  await expect(distributeButton(page)).toHaveText('Generate Links');
  await expect(distributeBar(page).getByTestId('distribute-cost')).toHaveText('2 tickets · 10 credits');
  // A third ticket costs more than the balance holds: the button says why it is disabled.
  await ticketCard(page, cedar.id).getByRole('checkbox', { name: 'Select Cedar City' }).check();
  await expect(distributeButton(page)).toBeDisabled();
  await expect(distributeBar(page).getByTestId('distribute-reason')).toHaveText('Need 15 credits (have 12)');
  await expect(distributeButton(page)).toHaveAttribute('title', 'Need 15 credits (have 12)');
  await ticketCard(page, cedar.id).getByRole('checkbox', { name: 'Select Cedar City' }).uncheck();
  await expect(distributeButton(page)).toBeEnabled();
  await expectNoA11yViolations(page, 'tickets overview with a selection');

  await distributeButton(page).click();
  const modal = settingsModal(page);
  await expect(modal.getByText('Configure distribution settings for 2 tickets', { exact: true })).toBeVisible();
  await expect(modal.getByRole('switch', { name: 'Unlimited access' })).toHaveAttribute('aria-checked', 'true');
  await expect(modal.getByTestId('usage-helper')).toHaveText('Link has unlimited clicks');
  await expect(modal.getByTestId('balance-warning')).toContainText(
    'Your balance will be deducted after the links have been generated.',
  );
  await expect(modal.getByRole('button', { name: 'Cancel' })).toBeVisible();
  await expectNoA11yViolations(page, 'distribution settings');

  // Link Expiration: at least an hour ahead (docs/reference.md "Link rules"); Clear empties it. Typed en-GB, day first,
  // 24-hour clock.
  const expiry = datePicker(modal, 'Expiry date and time');
  await typeInPicker(expiry, (await localDateTimeIn(page, 30 * 60_000)).enGb);
  await modal.getByRole('button', { name: 'Generate Links' }).click();
  await expect(modal.getByTestId('expiry-error')).toHaveText('Link expiry must be at least one hour from now');
  await modal.getByRole('button', { name: 'Clear' }).click();
  await expect.poll(() => pickerText(expiry)).toBe('dd/mm/yyyy, ––:––');
  await expect(modal.getByTestId('expiry-error')).toHaveCount(0);
  const later = await localDateTimeIn(page, 3 * 60 * 60_000);
  await typeInPicker(expiry, later.enGb);
  await expect.poll(() => pickerText(expiry)).toBe(later.enGb);
  // Link Usage Limit: with 'Unlimited access' off, a number of clicks is needed.
  await modal.getByRole('switch', { name: 'Unlimited access' }).click();
  const maxClicks = modal.getByPlaceholder('Enter maximum number of clicks');
  await expect(maxClicks).toBeFocused();
  await modal.getByRole('button', { name: 'Generate Links' }).click();
  await expect(modal.getByTestId('max-clicks-error')).toHaveText(
    'Enter the maximum number of clicks, or turn on Unlimited access',
  );
  await maxClicks.fill('2');
  await expect(modal.getByTestId('usage-helper')).toHaveText('Link will expire after 2 clicks');

  // The cards read 'Distributing...' while the request runs.
  const release = await holdNextRequest(page, '**/v1/tickets/distribute');
  const sent = page.waitForRequest(
    (req) => req.method() === 'POST' && new URL(req.url()).pathname === '/v1/tickets/distribute',
  );
  await modal.getByRole('button', { name: 'Generate Links' }).click();
  await expect(modal).toBeHidden();
  const body = (await sent).postDataJSON() as { ticket_ids: string[]; expiry_date: string; max_clicks: number };
  expect(body.ticket_ids.sort()).toEqual([alder.id, birch.id].sort());
  expect(body).toMatchObject({ expiry_date: later.iso, max_clicks: 2 });
  await expect(linkArea(ticketCard(page, alder.id))).toHaveText('Distributing...');
  await expect(linkArea(ticketCard(page, birch.id))).toHaveText('Distributing...');
  await expect(linkArea(ticketCard(page, cedar.id))).toHaveText('No distribution link generated');
  // Tickets being distributed are not offered again: a second submit would be a request of its own.
  await expect(distributeButton(page)).toBeDisabled();
  release();

  await expect(page.getByText('Successfully started distribution for 2 tickets.')).toBeVisible();
  await expect(page.getByTestId('available-credits')).toHaveText('2');
  await expect(page.getByTestId('distribution-rate')).toHaveText('67%');
  await expect(page.getByText('2 of 3 distributed')).toBeVisible();
  await expect(distributeBar(page)).toHaveCount(0);
  const links = new Map((await listTickets(holder.api)).map((t) => [t.id, t.distribution?.link ?? null]));
  const expiresAt = await expiryText(page, later.iso);
  for (const ticket of [alder, birch]) {
    const link = links.get(ticket.id)!;
    expect(link).toMatch(/\/l\/[A-Za-z0-9_-]{22}$/);
    const card = ticketCard(page, ticket.id);
    await expect(card).toHaveAttribute('data-status', '1');
    await expect(card.getByTestId('ticket-status')).toHaveText('Distributed');
    // The link cut to its first 30 characters, the whole of it in the tooltip.
    await expect(card.getByTestId('link-preview')).toHaveText(`${link.slice(0, 30)}...`);
    await expect(card.getByTestId('link-preview')).toHaveAttribute('title', link);
    await expect(card.getByTestId('link-clicks')).toHaveText('0 / 2');
    await expect(card.getByTestId('link-expiry')).toHaveText(expiresAt);
    await expect(card.getByTestId('limit-reached')).toHaveCount(0);
    await expect(card.getByTestId('link-expired')).toHaveCount(0);
    await expect(card.getByRole('button', { name: 'Copy link' })).toBeVisible();
    await expect(card.getByRole('link', { name: 'Open link (new tab)' })).toHaveAttribute('href', link);
    await expect(card.getByRole('button', { name: 'Recall Ticket' })).toBeVisible();
  }
  await expectNoA11yViolations(page, 'tickets overview with links');

  // Copy link puts the whole link on the clipboard.
  const alderCard = ticketCard(page, alder.id);
  const alderLink = links.get(alder.id)!;
  await alderCard.getByRole('button', { name: 'Copy link' }).click();
  await expect(page.getByText('Link copied!')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(alderLink);

  // Open link opens the recipient page in a new tab.
  const opened = context.waitForEvent('page');
  await alderCard.getByRole('link', { name: 'Open link (new tab)' }).click();
  const tab = await opened;
  await expect(tab).toHaveURL(alderLink);
  await expect(tab.getByRole('heading', { name: 'Alder Rovers' })).toBeVisible();
  await expect(tab.getByRole('button', { name: 'Add to wallet' })).toBeVisible();
  await tab.close();

  // Recall asks first; while it runs the button is disabled and pulsing; then the link is gone.
  await alderCard.getByRole('button', { name: 'Recall Ticket' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Recall Ticket' });
  await expect(confirm).toContainText('Alder Rovers');
  await expect(confirm).toContainText('The credits spent on the link are not given back.');
  await expectNoA11yViolations(page, 'recall confirmation');
  const releaseRecall = await holdNextRequest(page, '**/v1/distributions/*/recall');
  await confirm.getByRole('button', { name: 'Recall Ticket' }).click();
  const recallButton = alderCard.getByTestId('recall-ticket');
  await expect(recallButton).toBeDisabled();
  await expect(recallButton).toHaveAttribute('aria-busy', 'true');
  await expect(recallButton).toHaveClass(/animate-pulse/);
  releaseRecall();
  await expect(page.getByText('Ticket recalled')).toBeVisible();
  await expect(linkArea(alderCard)).toHaveText('No distribution link generated');
  await expect(alderCard).toHaveAttribute('data-status', '0');
  await expect(page.getByTestId('distribution-rate')).toHaveText('33%');
  // The recipient page of the recalled link says it was withdrawn.
  const check = await context.newPage();
  await check.goto(alderLink);
  await expect(check.getByTestId('link-state')).toHaveAttribute('data-state', 'recalled');
  await check.close();
});

test.describe('the expiry picker in an en-US browser (docs/reference.md#limits-and-constants: dates en-GB)', () => {
  test.use({ locale: 'en-US' });

  test('picks the expiry from the calendar, day first on a 24-hour clock; Escape closes the calendar, then the modal, each giving the focus back; the link carries the expiry', async ({
    page,
  }) => {
    holder = await ticketHolder(page, 'picker', { wallets: [[{ title: 'Juniper Vale' }]] });
    const juniper = ticketTitled(holder.tickets, 'Juniper Vale');
    await setCredits(holder.userId, 5);
    await signIn(page, holder.user);
    await ticketCard(page, juniper.id).getByRole('checkbox', { name: 'Select Juniper Vale' }).check();
    await distributeButton(page).click();
    const modal = settingsModal(page);
    const expiry = datePicker(modal, 'Expiry date and time');
    // dd/mm/yyyy and hours 0 to 23, whatever the browser's own locale: no AM/PM part.
    expect(await pickerParts(expiry)).toEqual(['day', 'month', 'year', 'hour', 'minute']);
    await expect(expiry.getByRole('spinbutton', { name: /^hour/ })).toHaveAttribute('aria-valuemax', '23');

    // The calendar opens over the modal; Escape closes it alone and the focus goes back to its button.
    const openCalendar = expiry.getByRole('button', { name: /^Calendar/ });
    await openCalendar.click();
    const calendar = page.getByRole('dialog', { name: 'Calendar Expiry date and time' });
    await expect(calendar.getByRole('grid')).toBeVisible();
    await expectNoA11yViolations(page, 'expiry calendar');
    await page.keyboard.press('Escape');
    await expect(calendar).toBeHidden();
    await expect(modal).toBeVisible();
    await expect(openCalendar).toBeFocused();
    // Escape again closes the modal; the focus goes back to the button that opened it.
    await page.keyboard.press('Escape');
    await expect(modal).toBeHidden();
    await expect(distributeButton(page)).toBeFocused();

    // The 15th of next month from the calendar, then 14:30 typed into the time.
    await distributeButton(page).click();
    await openCalendar.click();
    await calendar.getByRole('button', { name: 'Next' }).first().click();
    await calendar.getByRole('button', { name: /, 15 / }).click();
    await expect(calendar).toBeHidden();
    await expiry.getByRole('spinbutton', { name: /^hour/ }).click();
    await page.keyboard.type('1430');
    await expect.poll(() => pickerText(expiry)).toMatch(/^15\/\d{2}\/\d{4}, 14:30$/);
    // What the field shows is a moment in the browser's time zone: that is what the link must carry.
    const shown = await pickerText(expiry);
    const iso = await page.evaluate((text) => {
      const [, month, year] = /^15\/(\d{2})\/(\d{4})/.exec(text)!;
      return new Date(Number(year), Number(month) - 1, 15, 14, 30).toISOString();
    }, shown);
    expect(Date.parse(iso)).toBeGreaterThan(Date.now());

    const sent = page.waitForRequest(
      (req) => req.method() === 'POST' && new URL(req.url()).pathname === '/v1/tickets/distribute',
    );
    await modal.getByRole('button', { name: 'Generate Link', exact: true }).click();
    expect((await sent).postDataJSON()).toMatchObject({ ticket_ids: [juniper.id], expiry_date: iso });
    await expect(ticketCard(page, juniper.id).getByTestId('link-expiry')).toHaveText(await expiryText(page, iso));
    const [ticket] = (await listTickets(holder.api)).filter((t) => t.id === juniper.id);
    expect(Date.parse(ticket!.distribution!.expiry!)).toBe(Date.parse(iso));
  });
});

test('duplicates cannot be distributed, too few credits keep the button disabled until an admin adds some, and a refusal is shown', async ({
  page,
}) => {
  holder = await ticketHolder(page, 'duplicates', {
    wallets: [[{ title: 'Elm Wanderers' }], []],
    shared: [{ id: `fir-${Date.now().toString(36)}`, title: 'Fir Harriers' }],
  });
  const elm = ticketTitled(holder.tickets, 'Elm Wanderers');
  const duplicate = holder.tickets.find((t) => t.title === 'Fir Harriers' && t.is_duplicate)!;
  const kept = holder.tickets.find((t) => t.title === 'Fir Harriers' && !t.is_duplicate)!;
  await setCredits(holder.userId, 4);
  await signIn(page, holder.user);
  await expect(page.getByTestId('available-credits')).toHaveText('4');

  const duplicateCard = ticketCard(page, duplicate.id);
  await expect(duplicateCard).toHaveAttribute('data-status', '2');
  await expect(duplicateCard.getByTestId('duplicate-banner')).toHaveText('Duplicate: Cannot be distributed');
  await expect(linkArea(duplicateCard)).toHaveText('Cannot distribute duplicate tickets');
  await expect(ticketCard(page, kept.id)).toHaveAttribute('data-status', '0');

  // Only duplicates selected: nothing to distribute.
  await duplicateCard.getByRole('checkbox', { name: 'Select Fir Harriers' }).check();
  await expect(distributeButton(page)).toHaveText('Distribute');
  await expect(distributeButton(page)).toBeDisabled();
  await expect(distributeBar(page).getByTestId('distribute-reason')).toHaveText('All selected are duplicates');
  // With a ticket that can be distributed: one link, which needs 5 credits.
  await ticketCard(page, elm.id).getByRole('checkbox', { name: 'Select Elm Wanderers' }).check();
  await expect(distributeButton(page)).toHaveText('Generate Link');
  await expect(distributeButton(page)).toBeDisabled();
  await expect(distributeBar(page).getByTestId('distribute-reason')).toHaveText('Need 5 credits (have 4)');
  await expectNoA11yViolations(page, 'tickets overview with a duplicate selected');

  // An admin adds a credit: the balance and the button follow at once.
  await setCredits(holder.userId, 5);
  await expect(page.getByTestId('available-credits')).toHaveText('5');
  await expect(distributeButton(page)).toBeEnabled();
  await expect(distributeBar(page).getByTestId('distribute-cost')).toHaveText('1 ticket · 5 credits');

  // The settings are for the eligible ticket only; the credits go while the modal is open, and the server refuses.
  await distributeButton(page).click();
  await expect(
    settingsModal(page).getByText('Configure distribution settings for 1 ticket', { exact: true }),
  ).toBeVisible();
  await setCredits(holder.userId, 0);
  await expect(page.getByTestId('available-credits')).toHaveText('0');
  const sent = page.waitForRequest(
    (req) => req.method() === 'POST' && new URL(req.url()).pathname === '/v1/tickets/distribute',
  );
  await settingsModal(page).getByRole('button', { name: 'Generate Link', exact: true }).click();
  expect(((await sent).postDataJSON() as { ticket_ids: string[] }).ticket_ids).toEqual([elm.id]);
  const problem = page.getByTestId('distribution-error');
  await expect(problem).toContainText('Insufficient credits: this needs 5 credits and the balance is 0');
  await expect(problem.getByTestId('distribution-error-tickets')).toHaveText('Not distributed: Elm Wanderers');
  await expect(page.getByText('Failed to generate distribution links')).toBeVisible();
  await expect(linkArea(ticketCard(page, elm.id))).toHaveText('No distribution link generated');
  await expectNoA11yViolations(page, 'tickets overview with a refused distribution');
  await problem.getByRole('button', { name: 'Dismiss' }).click();
  await expect(problem).toHaveCount(0);

  // With the credits back, the ticket gets its link; the duplicate stays without one.
  await setCredits(holder.userId, 5);
  await expect(distributeButton(page)).toBeEnabled();
  await distributeButton(page).click();
  await settingsModal(page).getByRole('button', { name: 'Generate Link', exact: true }).click();
  await expect(page.getByText('Successfully started distribution for 1 ticket.')).toBeVisible();
  await expect(ticketCard(page, elm.id).getByTestId('link-clicks')).toHaveText('0 / ∞');
  await expect(ticketCard(page, elm.id).getByTestId('link-expiry')).toHaveText('Never');
  await expect(page.getByTestId('available-credits')).toHaveText('0');
  // The duplicate is still selected, and a distributed ticket with it leaves nothing to distribute.
  await expect(duplicateCard).toHaveAttribute('data-selected', 'true');
  await ticketCard(page, elm.id).getByRole('checkbox', { name: 'Select Elm Wanderers' }).check();
  await expect(distributeButton(page)).toHaveText('Distribute');
  await expect(distributeBar(page).getByTestId('distribute-reason')).toHaveText(
    'Selected tickets are already distributed or duplicates',
  );
  await expect(linkArea(duplicateCard)).toHaveText('Cannot distribute duplicate tickets');
  // Duplicates are in neither status filter (docs/reference.md "Ticket and link transitions").
  await page.getByLabel('Status').selectOption({ label: 'Distributed' });
  await expect(page.getByTestId('ticket-card')).toHaveCount(1);
  await page.getByLabel('Status').selectOption({ label: 'Not Distributed' });
  await expect(page.getByTestId('ticket-card')).toHaveCount(1);
  await expect(ticketCard(page, kept.id)).toBeVisible();
});

test("a link's clicks arrive live as a recipient claims it in another browser, up to 'Limit Reached'; 'Expired' once its time passes; the QR code", async ({
  page,
  browser,
  context,
}) => {
  holder = await ticketHolder(page, 'clicks', {
    wallets: [[{ title: 'Gorse United' }, { title: 'Hazel Town' }, { title: 'Ivy Albion' }]],
  });
  const gorse = ticketTitled(holder.tickets, 'Gorse United');
  const hazel = ticketTitled(holder.tickets, 'Hazel Town');
  const ivy = ticketTitled(holder.tickets, 'Ivy Albion');
  await setCredits(holder.userId, 15);
  const soon = new Date(Date.now() + 61 * 60_000).toISOString();
  const [gorseLink] = (await distributeByApi(holder.api, [gorse.id], { max_clicks: 1 })).distributions;
  const [hazelLink] = (await distributeByApi(holder.api, [hazel.id], { expiry_date: soon })).distributions;
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signIn(page, holder.user);
  await page.evaluate(() => ((window as unknown as { e2eSameDocument: boolean }).e2eSameDocument = true));
  const gorseCard = ticketCard(page, gorse.id);
  await expect(gorseCard.getByTestId('link-clicks')).toHaveText('0 / 1');
  await expect(gorseCard.getByTestId('link-expiry')).toHaveText('Never');
  await expect(gorseCard.getByRole('img', { name: 'Click timeline: no clicks yet' })).toBeVisible();
  await expect(ticketCard(page, hazel.id).getByTestId('link-clicks')).toHaveText('0 / ∞');
  await expect(page.getByTestId('available-credits')).toHaveText('5');

  // A link made elsewhere (another tab, the API) shows up, and its credits go, without a reload.
  const [ivyLink] = (await distributeByApi(holder.api, [ivy.id])).distributions;
  await expect(ticketCard(page, ivy.id).getByTestId('link-preview')).toHaveAttribute('title', ivyLink!.link);
  await expect(page.getByTestId('available-credits')).toHaveText('0');

  // A recipient on a phone claims the link in a browser of their own.
  const recipient = await browser.newContext({ userAgent: PERSON_USER_AGENT, viewport: { width: 375, height: 812 } });
  try {
    const phone = await recipient.newPage();
    await phone.goto(gorseLink!.link);
    await phone.getByRole('button', { name: 'Add to wallet' }).click();
    await expect(phone).toHaveURL(/\/wallet-sim\/save\/[^/]+$/);
    await expect(phone.getByText('Saved to your wallet')).toBeVisible();
  } finally {
    await recipient.close();
  }
  // The owner's dashboard counts it live, and the link has reached its limit.
  await expect(gorseCard.getByTestId('link-clicks')).toHaveText('1 / 1');
  await expect(gorseCard.getByTestId('limit-reached')).toHaveText('Limit Reached');
  await expect(gorseCard.getByRole('img', { name: /^Click timeline: 1 click, the last at / })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { e2eSameDocument?: boolean }).e2eSameDocument)).toBe(true);

  // The QR code of a link, with its Copy link.
  const hazelCard = ticketCard(page, hazel.id);
  await hazelCard.getByRole('button', { name: 'Show QR code' }).click();
  const qr = page.getByRole('dialog', { name: 'QR code' });
  await expect(qr).toContainText('Scan to open the link of Hazel Town.');
  await expect(qr.getByRole('img', { name: `QR code of ${hazelLink!.link}` })).toHaveAttribute(
    'data-value',
    hazelLink!.link,
  );
  await expect(qr.getByTestId('qr-link')).toHaveText(hazelLink!.link);
  await expectNoA11yViolations(page, 'QR code dialog');
  await qr.getByRole('button', { name: 'Copy link' }).click();
  await expect(page.getByText('Link copied!')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(hazelLink!.link);
  await page.keyboard.press('Escape');
  await expect(qr).toBeHidden();
  await expect(hazelCard.getByRole('button', { name: 'Show QR code' })).toBeFocused();

  // Time passes (the browser's clock, which the cards follow): the expiry is behind, and the card says 'Expired'.
  await expect(hazelCard.getByTestId('link-expiry')).toHaveText(await expiryText(page, soon));
  await expect(hazelCard.getByTestId('link-expired')).toHaveCount(0);
  await page.clock.setFixedTime(new Date(Date.now() + 2 * 60 * 60_000));
  await page.reload();
  await expect(hazelCard.getByTestId('link-expired')).toHaveText('Expired');
  await expect(gorseCard.getByTestId('limit-reached')).toHaveText('Limit Reached');
  await expect(gorseCard.getByTestId('link-expired')).toHaveCount(0);
  await expectNoA11yViolations(page, "tickets overview with 'Limit Reached' and 'Expired'");

  // The list view shows the same, with the actions of each row.
  await page.getByRole('button', { name: 'List view' }).click();
  const row = (ticketId: string) => page.locator(`[data-testid="ticket-row"][data-ticket-id="${ticketId}"]`);
  await expect(row(gorse.id).getByTestId('limit-reached')).toHaveText('Limit Reached');
  await expect(row(hazel.id).getByTestId('link-expired')).toHaveText('Expired');
  await expect(row(hazel.id).getByTestId('link-preview')).toHaveText(`${hazelLink!.link.slice(0, 30)}...`);
  for (const name of ['Copy link', 'Show QR code', 'Recall Ticket'])
    await expect(row(hazel.id).getByRole('button', { name })).toBeVisible();
  await expect(row(hazel.id).getByRole('link', { name: 'Open link (new tab)' })).toHaveAttribute(
    'href',
    hazelLink!.link,
  );
  await expectNoA11yViolations(page, 'tickets list with links');
});

test('the QR code downloads as a PNG and an SVG named for the event and seat, and prints alone', async ({ page }) => {
  holder = await ticketHolder(page, 'qrfiles', {
    wallets: [[{ title: 'Rowan Athletic', seat: { section: '112', row: 'F', seat: '7' } }]],
  });
  const rowan = ticketTitled(holder.tickets, 'Rowan Athletic');
  await setCredits(holder.userId, 5);
  const [made] = (await distributeByApi(holder.api, [rowan.id])).distributions;
  const link = made!.link;
  // The browser's print dialog is not for a test: window.print only counts its calls, and what the page held then.
  await page.addInitScript(() => {
    const calls: Array<{ sheet: string | null }> = [];
    (window as unknown as { e2ePrints: typeof calls }).e2ePrints = calls;
    window.print = () => {
      const sheet = document.querySelector('[data-print-sheet]');
      calls.push({ sheet: sheet ? (sheet as HTMLElement).innerText : null });
    };
  });
  await signIn(page, holder.user);
  const card = ticketCard(page, rowan.id);
  await card.getByRole('button', { name: 'Show QR code' }).click();
  const qr = page.getByRole('dialog', { name: 'QR code' });
  await expect(qr.getByRole('img', { name: `QR code of ${link}` })).toBeVisible();
  for (const name of ['Download PNG', 'Download SVG', 'Print'])
    await expect(qr.getByRole('button', { name })).toBeVisible();
  await expect(page.getByTestId('qr-print-sheet')).toHaveCount(0);
  await expectNoA11yViolations(page, 'QR code dialog with its downloads');
  await screenshot(page, 'qr-dialog-1280');
  const seatPart = (rowan.seat.seat_info_combined ?? '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  expect(seatPart).toMatch(/112.*f.*7/);

  // PNG: a file of its own name, and a PNG by its first bytes.
  const pngDownload = page.waitForEvent('download');
  await qr.getByRole('button', { name: 'Download PNG' }).click();
  const png = await pngDownload;
  expect(png.suggestedFilename()).toBe(`seatlink-rowan-athletic-${seatPart}.png`);
  const pngBytes = await readDownload(png);
  expect([...pngBytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  expect(pngBytes.length).toBeGreaterThan(1_000);

  // SVG: a document whose root is an <svg>, as the browser parses it.
  const svgDownload = page.waitForEvent('download');
  await qr.getByRole('button', { name: 'Download SVG' }).click();
  const svg = await svgDownload;
  expect(svg.suggestedFilename()).toBe(`seatlink-rowan-athletic-${seatPart}.svg`);
  const svgText = (await readDownload(svg)).toString('utf8');
  expect(svgText.trimStart().startsWith('<svg')).toBe(true);
  const parsed = await page.evaluate((text) => {
    const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
    return { root: doc.documentElement.localName, error: doc.querySelector('parsererror') !== null };
  }, svgText);
  expect(parsed).toEqual({ root: 'svg', error: false });

  // Print: the browser's print, of a sheet holding the QR code, the event and the link, and nothing else.
  await qr.getByRole('button', { name: 'Print' }).click();
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { e2ePrints: unknown[] }).e2ePrints.length))
    .toBe(1);
  const [printed] = await page.evaluate(
    () => (window as unknown as { e2ePrints: Array<{ sheet: string | null }> }).e2ePrints,
  );
  expect(printed!.sheet).toContain('Rowan Athletic');
  expect(printed!.sheet).toContain(link);
  const sheet = page.getByTestId('qr-print-sheet');
  await expect(sheet).toBeHidden(); // not on the screen
  await page.emulateMedia({ media: 'print' });
  try {
    await expect(sheet).toBeVisible();
    await expect(sheet.getByTestId('qr-print-event')).toHaveText('Rowan Athletic');
    await expect(sheet.getByTestId('qr-print-link')).toHaveText(link);
    await expect(sheet.getByTestId('qr-print-code')).toHaveAttribute('data-value', link);
    // Nothing else of the page goes to paper: the dialog, the cards, the sidebar.
    await expect(qr).toBeHidden();
    await expect(card).toBeHidden();
    await expect(page.getByRole('link', { name: 'Accounts' })).toBeHidden();
    await screenshot(page, 'qr-print-sheet');
  } finally {
    await page.emulateMedia({ media: 'screen' });
  }
  // (The print media emulated took the focus off Print; the dialog's own Close closes it.)
  await qr.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(qr).toBeHidden();
  await expect(sheet).toHaveCount(0);
});

test("an account's tickets page makes one ticket's link through the same settings", async ({ page }) => {
  holder = await ticketHolder(page, 'account', { wallets: [[{ title: 'Sorrel Park' }, { title: 'Tansy Mill' }]] });
  const sorrel = ticketTitled(holder.tickets, 'Sorrel Park');
  const tansy = ticketTitled(holder.tickets, 'Tansy Mill');
  await setCredits(holder.userId, 5);
  await signIn(page, holder.user);
  await page.goto(`/dashboard/accounts/${sorrel.account_id}`);
  const card = (ticketId: string) => page.locator(`[data-testid="account-ticket"][data-ticket-id="${ticketId}"]`);
  await expect(card(sorrel.id).getByTestId('ticket-distributed')).toHaveText('Not Distributed');

  await card(sorrel.id).getByRole('button', { name: 'Generate Link' }).click();
  const modal = settingsModal(page);
  await expect(modal.getByText('Configure distribution settings for 1 ticket', { exact: true })).toBeVisible();
  await expect(modal.getByTestId('distribution-cost')).toHaveText('This link costs 5 credits; your balance is 5.');
  await modal.getByRole('switch', { name: 'Unlimited access' }).click();
  await modal.getByPlaceholder('Enter maximum number of clicks').fill('5');
  await modal.getByRole('button', { name: 'Generate Link', exact: true }).click();
  await expect(page.getByText('Successfully started distribution for 1 ticket.')).toBeVisible();

  const link = (await listTickets(holder.api)).find((t) => t.id === sorrel.id)!.distribution!.link;
  await expect(card(sorrel.id).getByTestId('ticket-distributed')).toHaveText('Distributed');
  await expect(card(sorrel.id).getByTestId('link-preview')).toHaveText(`${link.slice(0, 30)}...`);
  await expect(card(sorrel.id).getByTestId('link-clicks')).toHaveText('0 / 5');
  await expect(card(sorrel.id).getByTestId('link-expiry')).toHaveText('Never');
  await expect(card(sorrel.id).getByRole('link', { name: 'Open link (new tab)' })).toHaveAttribute('href', link);
  // The credits are spent: the other ticket cannot have a link now, and says why.
  await expect(card(tansy.id).getByRole('button', { name: 'Generate Link' })).toBeDisabled();
  await expect(card(tansy.id).getByTestId('generate-reason')).toHaveText('Need 5 credits (have 0)');
  await expectNoA11yViolations(page, 'account tickets with a link');
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test('the selection bar and the settings fit the screen', async ({ page }) => {
    holder = await ticketHolder(page, 'phone', { wallets: [[{ title: 'Juniper Park' }]] });
    const juniper = ticketTitled(holder.tickets, 'Juniper Park');
    await setCredits(holder.userId, 5);
    await signIn(page, holder.user);
    await ticketCard(page, juniper.id).getByRole('checkbox', { name: 'Select Juniper Park' }).check();
    const bar = await distributeBar(page).boundingBox();
    const button = await distributeButton(page).boundingBox();
    expect(bar && button).toBeTruthy();
    // The button sits whole inside the bar and the screen, on one line.
    expect(button!.x + button!.width).toBeLessThanOrEqual(375);
    expect(button!.height).toBeLessThan(48);
    expect(button!.y + button!.height).toBeLessThanOrEqual(bar!.y + bar!.height);
    await expect(distributeBar(page).getByTestId('distribute-cost')).toHaveText('1 ticket · 5 credits');
    await expectNoA11yViolations(page, 'selection bar on a phone');
    await distributeButton(page).click();
    const modal = await settingsModal(page).boundingBox();
    expect(modal!.x).toBeGreaterThanOrEqual(0);
    expect(modal!.x + modal!.width).toBeLessThanOrEqual(375);
    await expectNoA11yViolations(page, 'distribution settings on a phone');
  });
});
