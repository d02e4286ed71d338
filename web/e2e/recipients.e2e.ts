import { expect, test, type Page } from '@playwright/test';
import {
  listTickets,
  setCredits,
  ticketCard,
  ticketHolder,
  ticketTitled,
  type TicketHolder,
} from './support/distribution';
import { waitForMail } from './support/mail-catcher';
import { signIn } from './support/session';

/**
 * Named recipients (docs/reference.md "Distribution Settings dialog", docs/user-guide.md): a batch of links for people
 * pasted one line per ticket, checked in a table before anything is charged; each named e-mail gets its own link, and
 * hears when it is recalled.
 */

let holder: TicketHolder | undefined;
test.afterEach(async () => {
  await holder?.api.dispose();
  holder = undefined;
});

const distributeBar = (page: Page) => page.getByTestId('distribute-bar');
const settingsModal = (page: Page) => page.getByRole('dialog', { name: 'Distribution Settings' });

test('a named batch: two pasted lines for two tickets, checked in a table, then each recipient has their link by e-mail; a recall tells them', async ({
  page,
}) => {
  holder = await ticketHolder(page, 'namer', {
    wallets: [[{ title: 'Alder Rovers' }, { title: 'Birch Athletic' }]],
  });
  const alder = ticketTitled(holder.tickets, 'Alder Rovers');
  const birch = ticketTitled(holder.tickets, 'Birch Athletic');
  const tag = Math.random().toString(36).slice(2, 8);
  const sam = `sam-${tag}@recipient.test`;
  const alex = `alex-${tag}@recipient.test`;
  await setCredits(holder.userId, 20);
  await signIn(page, holder.user);

  await ticketCard(page, alder.id).getByRole('checkbox', { name: 'Select Alder Rovers' }).check();
  await ticketCard(page, birch.id).getByRole('checkbox', { name: 'Select Birch Athletic' }).check();
  await distributeBar(page).getByTestId('distribute-button').click();
  const modal = settingsModal(page);
  const box = modal.getByLabel('Recipients (optional)');

  // Three lines for two tickets, one with a bad address: each is said, and nothing is charged.
  await box.fill(`Sam Jones <${sam}>\nAlex, alex@@bad\nJo`);
  await expect(modal.getByTestId('recipients-errors')).toContainText('Line 2: not a valid email address');
  await expect(modal.getByTestId('recipients-errors')).toContainText('3 recipients for 2 tickets: remove 1 line');
  await modal.getByRole('button', { name: 'Generate Links' }).click();
  await expect(modal.getByTestId('recipients-blocked')).toBeVisible();
  await expect(page.getByTestId('available-credits')).toHaveText('20');

  // Two good lines: the check table pairs them with the tickets, in order.
  await box.fill(`Sam Jones <${sam}>\nAlex, ${alex}`);
  await expect(modal.getByTestId('recipients-errors')).toHaveCount(0);
  const rows = modal.getByTestId('recipients-check-row');
  await expect(rows).toHaveCount(2);
  const order = await rows.evaluateAll((trs) => trs.map((tr) => tr.textContent ?? ''));
  const first = order[0]!.includes('Alder Rovers') ? { ticket: alder, to: sam } : { ticket: birch, to: sam };
  const second = first.ticket.id === alder.id ? { ticket: birch, to: alex } : { ticket: alder, to: alex };
  expect(order[0]).toContain(`Sam Jones <${sam}>`);
  expect(order[1]).toContain(`Alex <${alex}>`);
  const sentAt = Date.now();
  await modal.getByRole('button', { name: 'Generate Links' }).click();
  await expect(modal).toHaveCount(0);
  await expect(page.getByTestId('available-credits')).toHaveText('10');

  // Each card names its recipient; each recipient has their own link, and no PIN.
  await expect(ticketCard(page, first.ticket.id).getByTestId('link-recipient')).toHaveText('To Sam Jones');
  await expect(ticketCard(page, second.ticket.id).getByTestId('link-recipient')).toHaveText('To Alex');
  const toSam = await waitForMail(sam, /sent you a ticket/, sentAt);
  const toAlex = await waitForMail(alex, /sent you a ticket/, sentAt);
  const listed = await listTickets(holder.api);
  const samLink = listed.find((t) => t.id === first.ticket.id)!.distribution!.link;
  const alexLink = listed.find((t) => t.id === second.ticket.id)!.distribution!.link;
  expect(toSam.text).toContain(first.ticket.title);
  expect(toSam.text).toContain(samLink);
  expect(toAlex.text).toContain(alexLink);
  expect(toAlex.text).not.toContain(samLink);

  // A recall tells the recipient the link no longer opens.
  const card = ticketCard(page, first.ticket.id);
  await card.getByRole('button', { name: 'Recall Ticket' }).click();
  await page.getByRole('alertdialog', { name: 'Recall Ticket' }).getByRole('button', { name: 'Recall Ticket' }).click();
  const withdrawn = await waitForMail(sam, /withdrew your ticket link/, sentAt);
  expect(withdrawn.text).toContain('no longer opens');
});
