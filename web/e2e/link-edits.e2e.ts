import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import type { Ticket } from '@seatlink/contracts';
import { ticketCardHeight } from '../src/features/tickets/ticket-card-height';
import { expectNoA11yViolations } from './support/axe';
import { datePicker, pickerText } from './support/date-picker';
import {
  distributeByApi,
  listTickets,
  localDateTimeIn,
  PERSON_USER_AGENT,
  RecipientPhones,
  setCredits,
  ticketCard,
  ticketHolder,
  ticketTitled,
  type TicketHolder,
} from './support/distribution';
import { demo, signIn } from './support/session';

/**
 * Editing a live link on the Tickets Overview: its click limit, expiry and label change without a recall and without
 * paying again; a recipient's claims follow the new limit at once; the label shows on the card and in the list and is
 * found by the search box.
 */

let holder: TicketHolder | undefined;
const phones = new RecipientPhones();
test.afterEach(async () => {
  await phones.closeAll();
  await holder?.api.dispose();
  holder = undefined;
});

/** A recipient presses "Add to wallet" on a phone of their own; answers what the page then says. */
async function claimOnPhone(phone: Page, link: string): Promise<void> {
  await phone.goto(link);
  await phone.getByRole('button', { name: 'Add to wallet' }).click();
}

test('raises a reached limit and labels the link: the recipient claims again, the label shows, is searched, and costs nothing', async ({
  page,
  browser,
}) => {
  holder = await ticketHolder(page, 'edits', {
    wallets: [[{ title: 'Juniper Rovers' }, { title: 'Kestrel County' }, { title: 'Larch Wanderers' }]],
  });
  const juniper = ticketTitled(holder.tickets, 'Juniper Rovers');
  const kestrel = ticketTitled(holder.tickets, 'Kestrel County');
  await setCredits(holder.userId, 10);
  const [juniperLink] = (await distributeByApi(holder.api, [juniper.id], { max_clicks: 1 })).distributions;
  await distributeByApi(holder.api, [kestrel.id], { label: 'for the office' });
  await signIn(page, holder.user);
  const card = ticketCard(page, juniper.id);
  await expect(page.getByTestId('available-credits')).toHaveText('0');
  await expect(ticketCard(page, kestrel.id).getByTestId('link-label')).toHaveText('Label: for the office');

  // One claim reaches the limit.
  const phone = await phones.open(browser);
  await claimOnPhone(phone, juniperLink!.link);
  await expect(phone.getByText('Saved to your wallet')).toBeVisible();
  await expect(card.getByTestId('limit-reached')).toHaveText('Limit Reached');

  // Edit Link: the modal starts from the link as it is.
  await card.getByRole('button', { name: 'Edit Link' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit Link' });
  await expect(dialog).toContainText('Juniper Rovers: the link keeps its address and its 1 click, and costs nothing');
  await expect(dialog.getByRole('switch', { name: 'Unlimited access' })).not.toBeChecked();
  await expect(dialog.getByLabel('Maximum number of clicks')).toHaveValue('1');
  await expectNoA11yViolations(page, 'Edit Link dialog');
  // A limit below the clicks counted is named under its field, before anything is sent.
  await dialog.getByLabel('Maximum number of clicks').fill('0');
  await dialog.getByRole('button', { name: 'Save Changes' }).click();
  await expect(dialog.getByTestId('max-clicks-error')).toHaveText('Max clicks must be a whole number of at least 1');
  await dialog.getByLabel('Maximum number of clicks').fill('3');
  await dialog.getByLabel('Label').fill('  for Sam  ');
  await dialog.getByRole('button', { name: 'Save Changes' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Link updated')).toBeVisible();
  await expect(card.getByTestId('link-clicks')).toHaveText('1 / 3');
  await expect(card.getByTestId('limit-reached')).toHaveCount(0);
  await expect(card.getByTestId('link-label')).toHaveText('Label: for Sam');
  await expect(card.getByTestId('link-preview')).toHaveAttribute('title', juniperLink!.link);
  await expect(page.getByTestId('available-credits')).toHaveText('0');

  // The same link opens again for the recipient, and the click arrives live.
  await claimOnPhone(phone, juniperLink!.link);
  await expect(phone.getByText('Saved to your wallet')).toBeVisible();
  await expect(card.getByTestId('link-clicks')).toHaveText('2 / 3');
  // The link's timeline is named by its label.
  await expect(card.getByRole('img', { name: /^Click timeline of for Sam: 2 clicks, the last at / })).toBeVisible();

  // Now 2 clicks: lower than that is refused in the modal; the same settings again change nothing.
  await card.getByRole('button', { name: 'Edit Link' }).click();
  await dialog.getByLabel('Maximum number of clicks').fill('1');
  await dialog.getByRole('button', { name: 'Save Changes' }).click();
  await expect(dialog.getByTestId('max-clicks-error')).toHaveText(
    'Max clicks cannot be lower than the 2 clicks already counted',
  );
  await dialog.getByLabel('Maximum number of clicks').fill('3');
  await dialog.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('Nothing changed')).toBeVisible();

  // The row of cards is as tall as the grid laid it out, with the labels' lines.
  const tickets: Ticket[] = await listTickets(holder.api);
  const row = page.getByTestId('tickets-grid').locator('[data-index]').first();
  const laidOut = Math.max(...tickets.map(ticketCardHeight));
  expect((await row.boundingBox())!.height).toBe(laidOut);

  // The search box finds a link by its label.
  await page.getByRole('searchbox').fill('FOR SAM');
  await expect(page.getByTestId('ticket-card')).toHaveCount(1);
  await expect(page.getByTestId('ticket-card')).toHaveAttribute('data-ticket-id', juniper.id);
  await page.getByRole('searchbox').fill('');

  // The list view shows the label beside the link, and edits from its row.
  await page.getByRole('button', { name: 'List view' }).click();
  const listRow = page.locator(`[data-testid="ticket-row"][data-ticket-id="${juniper.id}"]`);
  await expect(listRow.getByTestId('link-label')).toHaveText('Label: for Sam');
  await listRow.getByRole('button', { name: 'Edit Link' }).click();
  await dialog.getByRole('switch', { name: 'Unlimited access' }).click();
  await dialog.getByLabel('Label').fill('');
  await dialog.getByRole('button', { name: 'Save Changes' }).click();
  await expect(dialog).toBeHidden();
  await expect(listRow.getByTestId('link-clicks')).toHaveText('2 / ∞');
  await expect(listRow.getByTestId('link-label')).toHaveCount(0);
  await expectNoA11yViolations(page, 'tickets list with a labelled link');

  // What the server holds is what the page shows.
  const held = (await listTickets(holder.api)).find((t) => t.id === juniper.id)!;
  expect(held.distribution).toMatchObject({ clicks: 2, max_clicks: null, label: null });

  // An admin reads each edit in the user's audit log: 'Link Updated', with what changed from what to what.
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await signIn(admin, demo.admin);
  await admin.goto(`/admin/users/${holder.userId}/audits`);
  const edits = admin
    .getByTestId('audit-row')
    .filter({ has: admin.getByTestId('audit-type').getByText('Link Updated') });
  await expect(edits).toHaveCount(2);
  await edits.last().getByRole('button', { name: 'View Details' }).click();
  const details = admin.getByRole('dialog', { name: 'Audit entry details' });
  await expect(details.getByTestId('detail-changes')).toHaveText('Click limit: 1 → 3; Label: — → for Sam');
  await expect(details.getByTestId('detail-label')).toHaveText('for Sam');
  await admin.keyboard.press('Escape');
  await edits.first().getByRole('button', { name: 'View Details' }).click();
  await expect(details.getByTestId('detail-changes')).toHaveText('Click limit: 3 → Unlimited; Label: for Sam → —');
  await adminContext.close();
});

test('an edit the server refuses says why and keeps the modal; a link recalled in another tab closes it', async ({
  page,
  request,
}) => {
  holder = await ticketHolder(page, 'editrace', { wallets: [[{ title: 'Maple Athletic' }]] });
  const maple = ticketTitled(holder.tickets, 'Maple Athletic');
  await setCredits(holder.userId, 5);
  const [link] = (await distributeByApi(holder.api, [maple.id], { max_clicks: 5 })).distributions;
  await signIn(page, holder.user);
  const card = ticketCard(page, maple.id);
  await card.getByRole('button', { name: 'Edit Link' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit Link' });
  await dialog.getByLabel('Maximum number of clicks').fill('2');

  // The edit is held on its way while three recipients claim: by the time it arrives, 3 clicks are counted.
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(
    '**/v1/distributions/*',
    async (route) => {
      await released;
      await route.continue();
    },
    { times: 1 },
  );
  await dialog.getByRole('button', { name: 'Save Changes' }).click();
  const code = new URL(link!.link).pathname.split('/').pop()!;
  for (let i = 0; i < 3; i++) {
    const claimed = await request.post(`/v1/links/${code}/claim`, { headers: { 'user-agent': PERSON_USER_AGENT } });
    expect(claimed.status()).toBe(200);
  }
  release();
  await expect(page.getByText('Max clicks cannot be lower than the 3 clicks already counted')).toBeVisible();
  await expect(dialog).toBeVisible();
  await expect(card.getByTestId('link-clicks')).toHaveText('3 / 5');

  // Recalled elsewhere while the modal is open: the link leaves the card, and its modal with it.
  const recalled = await holder.api.post(`/v1/distributions/${link!.distribution_id}/recall`);
  expect(recalled.status()).toBe(200);
  await expect(card.getByTestId('ticket-link-area')).toHaveText('No distribution link generated');
  await expect(dialog).toBeHidden();
  const held = (await listTickets(holder.api)).find((t) => t.id === maple.id)!;
  expect(held.distribution).toBeNull();
});

test('edits, then recalls, the links of the selected tickets from the bottom bar, each as it would be alone', async ({
  page,
  request,
}) => {
  holder = await ticketHolder(page, 'bulklinks', {
    wallets: [
      [{ title: 'Nettle Harriers' }, { title: 'Oakham Town' }, { title: 'Poplar Rangers' }, { title: 'Quince FC' }],
    ],
  });
  const [nettle, oakham, poplar, quince] = ['Nettle Harriers', 'Oakham Town', 'Poplar Rangers', 'Quince FC'].map(
    (title) => ticketTitled(holder!.tickets, title),
  ) as [Ticket, Ticket, Ticket, Ticket];
  await setCredits(holder.userId, 15);
  const made = (await distributeByApi(holder.api, [nettle.id, oakham.id, poplar.id], { max_clicks: 5 })).distributions;
  const oakhamLink = made.find((d) => d.ticket_id === oakham.id)!;
  // Oakham's link has 4 clicks: a limit of 3 does not fit it.
  const code = new URL(oakhamLink.link).pathname.split('/').pop()!;
  for (let i = 0; i < 4; i++) {
    expect(
      (await request.post(`/v1/links/${code}/claim`, { headers: { 'user-agent': PERSON_USER_AGENT } })).status(),
    ).toBe(200);
  }
  await signIn(page, holder.user);
  for (const ticket of [nettle, oakham, poplar, quince]) {
    await ticketCard(page, ticket.id)
      .getByRole('checkbox', { name: `Select ${ticket.title}` })
      .check();
  }
  const bar = page.getByTestId('distribute-bar');
  await expect(bar.getByTestId('selected-count')).toHaveText('4 selected');

  // Edit 3 links: only what is ticked changes.
  await bar.getByRole('button', { name: 'Edit 3 links' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit 3 links' });
  await dialog.getByRole('button', { name: 'Save Changes' }).click();
  await expect(dialog.getByTestId('no-choice')).toHaveText(
    'Tick what to change: the expiry, the usage limit, the label or the PIN',
  );
  await dialog.getByRole('checkbox', { name: 'Change the usage limit' }).check();
  await dialog.getByRole('switch', { name: 'Unlimited access' }).click();
  await dialog.getByLabel('Maximum number of clicks').fill('3');
  await dialog.getByRole('checkbox', { name: 'Change the label' }).check();
  await dialog.getByLabel('Label', { exact: true }).fill('Away end');
  await expectNoA11yViolations(page, 'Edit links dialog');
  await dialog.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('2 links updated')).toBeVisible();
  await expect(
    page.getByText('1 link not changed: Max clicks cannot be lower than the 4 clicks already counted'),
  ).toBeVisible();
  for (const ticket of [nettle, poplar]) {
    await expect(ticketCard(page, ticket.id).getByTestId('link-label')).toHaveText('Label: Away end');
    await expect(ticketCard(page, ticket.id).getByTestId('link-clicks')).toHaveText('0 / 3');
  }
  await expect(ticketCard(page, oakham.id).getByTestId('link-clicks')).toHaveText('4 / 5');
  await expect(ticketCard(page, oakham.id).getByTestId('link-label')).toHaveCount(0);

  // Recall 3 links, after confirming: they leave their cards, their tickets are unticked, nothing is given back.
  await bar.getByRole('button', { name: 'Recall 3 links' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Recall 3 links' });
  await expect(confirm).toContainText('The credits spent on the link are not given back.');
  await confirm.getByRole('button', { name: 'Recall 3 links' }).click();
  await expect(page.getByText('3 links recalled')).toBeVisible();
  for (const ticket of [nettle, oakham, poplar]) {
    await expect(ticketCard(page, ticket.id).getByTestId('ticket-link-area')).toHaveText(
      'No distribution link generated',
    );
  }
  await expect(bar.getByTestId('selected-count')).toHaveText('1 selected');
  await expect(bar.getByRole('button', { name: /^Recall / })).toHaveCount(0);
  await expect(page.getByTestId('available-credits')).toHaveText('0');
  expect((await listTickets(holder.api)).filter((t) => t.distribution)).toHaveLength(0);

  // Export links: a CSV of every link made, recalled ones too, with their labels and states.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-links').click()]);
  expect(download.suggestedFilename()).toBe('seatlink-links.csv');
  const csv = readFileSync(await download.path(), 'utf8')
    .replace(/^\uFEFF/, '')
    .trim()
    .split(/\r?\n/);
  expect(csv).toHaveLength(4);
  expect(csv.filter((line) => line.includes(',Away end,,,recalled,0,3,'))).toHaveLength(2);
  expect(csv.filter((line) => line.includes(',,,,recalled,4,5,'))).toHaveLength(1);
});

test("offers 'When the event starts' as the expiry of a ticket with a next game, when making its link and editing it", async ({
  page,
}) => {
  const start = new Date(Math.floor((Date.now() + 3 * 24 * 60 * 60_000) / 60_000) * 60_000).toISOString();
  holder = await ticketHolder(page, 'eventstart', {
    wallets: [[{ title: 'Rowan Athletic', nextGame: { title: 'Rowan Athletic vs Sorrel City', date: start } }]],
  });
  const rowan = ticketTitled(holder.tickets, 'Rowan Athletic');
  expect(rowan.metadata.next_game_date).toBe(start);
  await setCredits(holder.userId, 5);
  await signIn(page, holder.user);
  const card = ticketCard(page, rowan.id);
  await card.getByRole('checkbox', { name: 'Select Rowan Athletic' }).check();
  await page.getByTestId('distribute-button').click();
  const settings = page.getByRole('dialog', { name: 'Distribution Settings' });
  const picked = await localDateTimeIn(page, Date.parse(start) - Date.now() - 30_000);
  await settings.getByRole('button', { name: /^When the event starts/ }).click();
  await expect.poll(() => pickerText(datePicker(settings, 'Expiry date and time'))).toBe(picked.enGb);
  await settings.getByRole('button', { name: 'Generate Link', exact: true }).click();
  await expect(card.getByTestId('link-expiry')).not.toHaveText('Never');
  const made = (await listTickets(holder.api)).find((t) => t.id === rowan.id)!;
  expect(made.distribution?.expiry).toBe(start);

  // Edited: Never, then the event's start again.
  await card.getByRole('button', { name: 'Edit Link' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit Link' });
  await dialog.getByRole('button', { name: 'Clear' }).click();
  await dialog.getByRole('button', { name: 'Save Changes' }).click();
  await expect(card.getByTestId('link-expiry')).toHaveText('Never');
  await card.getByRole('button', { name: 'Edit Link' }).click();
  await dialog.getByRole('button', { name: /^When the event starts/ }).click();
  await dialog.getByRole('button', { name: 'Save Changes' }).click();
  await expect(card.getByTestId('link-expiry')).not.toHaveText('Never');
  expect((await listTickets(holder.api)).find((t) => t.id === rowan.id)!.distribution?.expiry).toBe(start);
});

test('protects a link with a PIN: the recipient on a phone is asked for it, a wrong one counts nothing, the right one claims', async ({
  page,
  browser,
}) => {
  holder = await ticketHolder(page, 'pinned', { wallets: [[{ title: 'Spruce Wanderers' }]] });
  const spruce = ticketTitled(holder.tickets, 'Spruce Wanderers');
  await setCredits(holder.userId, 5);
  await signIn(page, holder.user);
  const card = ticketCard(page, spruce.id);
  await card.getByRole('checkbox', { name: 'Select Spruce Wanderers' }).check();
  await page.getByTestId('distribute-button').click();
  const settings = page.getByRole('dialog', { name: 'Distribution Settings' });
  await settings.getByLabel('PIN', { exact: true }).fill('12a');
  await expect(settings.getByLabel('PIN', { exact: true })).toHaveValue('12');
  await settings.getByRole('button', { name: 'Generate Link', exact: true }).click();
  await expect(settings.getByTestId('pin-error')).toHaveText('A PIN is 4 to 8 digits');
  await settings.getByLabel('PIN', { exact: true }).fill('482916');
  await settings.getByRole('button', { name: 'Generate Link', exact: true }).click();
  await expect(card.getByTestId('pin-badge')).toHaveText('PIN');
  const link = (await card.getByTestId('link-preview').getAttribute('title'))!;

  // The recipient, on a phone: asked for the PIN; a wrong one is said under it and counts nothing.
  const phone = await phones.open(browser);
  await phone.goto(link);
  const pin = phone.getByLabel('PIN');
  await expect(pin).toBeVisible();
  await expectNoA11yViolations(phone, 'recipient page asking for a PIN');
  await phone.getByRole('button', { name: 'Add to wallet' }).click();
  await expect(phone.getByTestId('pin-error')).toHaveText('Enter the PIN the sender gave you');
  await pin.fill('111111');
  await phone.getByRole('button', { name: 'Add to wallet' }).click();
  await expect(phone.getByTestId('pin-error')).toHaveText('That PIN is not right');
  await expect(card.getByTestId('link-clicks')).toHaveText('0 / ∞');
  await pin.fill('482916');
  await pin.press('Enter');
  await expect(phone).toHaveURL(/\/wallet-sim\/save\/[^/]+$/);
  await expect(phone.getByText('Saved to your wallet')).toBeVisible();
  await expect(card.getByTestId('link-clicks')).toHaveText('1 / ∞');

  // The owner takes the PIN off: the next recipient is not asked.
  await card.getByRole('button', { name: 'Edit Link' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit Link' });
  await expect(dialog.getByTestId('has-pin')).toBeVisible();
  await dialog.getByRole('checkbox', { name: 'Remove the PIN' }).check();
  await dialog.getByRole('button', { name: 'Save Changes' }).click();
  await expect(card.getByTestId('pin-badge')).toHaveCount(0);
  const next = await phones.open(browser);
  await next.goto(link);
  await expect(next.getByRole('button', { name: 'Add to wallet' })).toBeVisible();
  await expect(next.getByLabel('PIN')).toHaveCount(0);
});

test('slows a guesser on one phone after a few wrong PINs, saying how long to wait, and the recipient on another phone still claims', async ({
  page,
  browser,
}) => {
  holder = await ticketHolder(page, 'guessed', { wallets: [[{ title: 'Aspen Harriers' }]] });
  const aspen = ticketTitled(holder.tickets, 'Aspen Harriers');
  await setCredits(holder.userId, 5);
  const link = (await distributeByApi(holder.api, [aspen.id], { pin: '730514' })).distributions[0]!.link;

  // The guesser: a few wrong PINs are only wrong; then each try must wait for the last one's wait, which grows.
  const guesser = await phones.open(browser);
  await guesser.goto(link);
  const pin = guesser.getByLabel('PIN');
  const press = guesser.getByRole('button', { name: 'Add to wallet' });
  let slowed = false;
  for (let i = 0; i < 12 && !slowed; i++) {
    await pin.fill(String(100_000 + i));
    await press.click();
    const error = guesser.getByTestId('pin-error');
    await expect(error).toHaveText(/That PIN is not right|Too many PINs tried/);
    slowed = (await error.textContent())!.startsWith('Too many PINs tried');
  }
  expect(slowed).toBe(true);
  await expect(guesser.getByTestId('pin-error')).toHaveText(
    /^Too many PINs tried from this device or network\. Wait \d+ seconds? before you try again\.$/,
  );
  await expect(guesser.getByTestId('pin-wait')).toHaveText(/^You can try again in \d+ seconds?\.$/);
  await expect(press).toBeDisabled();
  await expectNoA11yViolations(guesser, 'recipient page slowed after wrong PINs');

  // The recipient, on a phone of their own: the right PIN claims at once, however many wrong ones were tried.
  const recipient = await phones.open(browser);
  await recipient.goto(link);
  await recipient.getByLabel('PIN').fill('730514');
  await recipient.getByRole('button', { name: 'Add to wallet' }).click();
  await expect(recipient).toHaveURL(/\/wallet-sim\/save\/[^/]+$/);
  await expect(recipient.getByText('Saved to your wallet')).toBeVisible();
  // Once the wait is over, the guesser's page offers the button again.
  await expect(press).toBeEnabled({ timeout: 10_000 });
});
