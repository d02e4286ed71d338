import { expect, test, type Page, type Request } from '@playwright/test';
import type { Ticket } from '@seatlink/contracts';
import { expectNoA11yViolations } from './support/axe';
import {
  distributeByApi,
  listTickets,
  setCredits,
  ticketCard,
  ticketHolder,
  ticketTitled,
  type TicketHolder,
} from './support/distribution';
import { mailsTo, waitForMail } from './support/mail-catcher';
import { signIn } from './support/session';

/**
 * Named recipients (docs/reference.md "Distribution Settings dialog", docs/user-guide.md): a batch of links for people
 * pasted one line per ticket, checked in a table before anything is charged; each named e-mail gets its own link, and
 * hears when it is recalled. Links already made are named the same way in Edit Links (the links no line reaches keep
 * theirs), and one ticket of an account's tickets page through the Distribution Settings' Recipient fields.
 */

let holder: TicketHolder | undefined;
test.afterEach(async () => {
  await holder?.api.dispose();
  holder = undefined;
});

const distributeBar = (page: Page) => page.getByTestId('distribute-bar');
const settingsModal = (page: Page) => page.getByRole('dialog', { name: 'Distribution Settings' });
const RECIPIENT_LINK_MAIL = /sent you a ticket/;

/** The PATCH /v1/distributions requests `page` sends from now on (the bulk edit of links). */
function bulkEditsOf(page: Page): Request[] {
  const sent: Request[] = [];
  page.on('request', (request) => {
    if (request.method() === 'PATCH' && new URL(request.url()).pathname === '/v1/distributions') sent.push(request);
  });
  return sent;
}

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
  // Dark, the paste box and the check table keep their contrast.
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(page.locator('html')).toHaveClass(/\bdark\b/);
  await expectNoA11yViolations(page, 'recipients check table, dark');
  await page.screenshot({ path: test.info().outputPath('recipients-dark.png') });
  await page.emulateMedia({ colorScheme: 'light' });
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

test('Edit Links names the recipients of links already made: two pasted lines for three links, the third keeps its own; a bad line sends nothing', async ({
  page,
}) => {
  holder = await ticketHolder(page, 'renamer', {
    wallets: [[{ title: 'Cedar Vale' }, { title: 'Dunmore Town' }, { title: 'Elmwick United' }]],
  });
  const tickets = ['Cedar Vale', 'Dunmore Town', 'Elmwick United'].map((title) => ticketTitled(holder!.tickets, title));
  const tag = Math.random().toString(36).slice(2, 8);
  const ana = `ana-${tag}@recipient.test`;
  const ben = `ben-${tag}@recipient.test`;
  await setCredits(holder.userId, 15);
  // The links are made for nobody.
  await distributeByApi(
    holder.api,
    tickets.map((t) => t.id),
  );
  const links = new Map((await listTickets(holder.api)).map((t) => [t.id, t.distribution!]));
  const linkOf = (ticket: Ticket) => links.get(ticket.id)!;
  const since = Date.now();
  await signIn(page, holder.user);
  for (const ticket of tickets) {
    await expect(ticketCard(page, ticket.id).getByTestId('link-preview')).toBeVisible();
    await expect(ticketCard(page, ticket.id).getByTestId('link-recipient')).toHaveCount(0);
    await ticketCard(page, ticket.id)
      .getByRole('checkbox', { name: `Select ${ticket.title}` })
      .check();
  }
  const edits = bulkEditsOf(page);
  await distributeBar(page).getByRole('button', { name: 'Edit 3 links' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit 3 links' });
  await expect(dialog).toHaveAttribute('data-testid', 'edit-links-dialog');
  const box = dialog.getByLabel('Recipients (optional)');
  const save = dialog.getByRole('button', { name: 'Save Changes' });

  // A bad line is said, and Save Changes sends nothing: the dialog stays, with the list as pasted.
  await box.fill(`Ana <${ana}>\n${ben}\nCy <nope>`);
  await expect(dialog.getByTestId('recipients-errors')).toHaveText('Line 3: not a valid email address');
  await save.click();
  await expect(dialog).toBeVisible();
  await expect(box).toHaveValue(`Ana <${ana}>\n${ben}\nCy <nope>`);
  await expect(dialog.getByTestId('no-choice')).toHaveCount(0);
  // Beside the buttons too, where the press was.
  await expect(dialog.getByTestId('recipients-blocked')).toHaveText('Line 3: not a valid email address');
  // Only bad lines, nothing ticked: it is the line that is wrong, not the choice.
  await box.fill('Cy <nope>');
  await save.click();
  await expect(dialog.getByTestId('recipients-blocked')).toHaveText('Line 1: not a valid email address');
  await expect(dialog.getByTestId('no-choice')).toHaveCount(0);

  // Two good lines for three links: the table pairs them in order, the third is "Unchanged", and a warning says so.
  await box.fill(`Ana <${ana}>\n${ben}`);
  await expect(dialog.getByTestId('recipients-errors')).toHaveCount(0);
  await expect(dialog.getByTestId('recipients-warning')).toHaveText(
    '2 recipients for 3 links: the last keeps its recipient',
  );
  const rows = dialog.getByTestId('recipients-check').getByTestId('recipients-check-row');
  await expect(rows).toHaveCount(3);
  const order = await rows.evaluateAll((trs) => trs.map((tr) => tr.textContent ?? ''));
  const inOrder = order.map((text) => {
    const ticket = tickets.find((t) => text.startsWith(t.title));
    if (!ticket) throw new Error(`no selected ticket in row "${text}"`);
    return ticket;
  });
  expect(new Set(inOrder.map((t) => t.id)).size).toBe(3);
  // The lines go to the links in the order their cards show.
  const shown = await page
    .getByTestId('ticket-card')
    .evaluateAll((cards) => cards.map((card) => card.getAttribute('data-ticket-id')));
  expect(inOrder.map((t) => t.id)).toEqual(shown.filter((id) => tickets.some((t) => t.id === id)));
  const [toAna, toBen, kept] = inOrder as [Ticket, Ticket, Ticket];
  expect(order[0]).toContain(`Ana <${ana}>`);
  expect(order[1]).toContain(`<${ben}>`);
  expect(order[1]).not.toContain('Ana');
  expect(order[2]).toContain('Unchanged');
  expect(order[2]).not.toContain('@');
  // Nothing was sent while the list had a bad line.
  expect(edits).toHaveLength(0);
  await expectNoA11yViolations(page, 'Edit links dialog with pasted recipients');

  // Saved with no setting ticked: only the two links named are sent, with their recipients and nothing else.
  const sentAt = Date.now();
  await save.click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByText('2 links updated')).toBeVisible();
  expect(edits).toHaveLength(1);
  const body = edits[0]!.postDataJSON() as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(['distribution_ids', 'recipients']);
  expect(new Set(body.distribution_ids as string[])).toEqual(
    new Set([linkOf(toAna).distribution_id, linkOf(toBen).distribution_id]),
  );
  expect(body.recipients).toEqual(
    expect.arrayContaining([
      { distribution_id: linkOf(toAna).distribution_id, name: 'Ana', email: ana },
      { distribution_id: linkOf(toBen).distribution_id, name: null, email: ben },
    ]),
  );

  // The cards name them (Ben by his e-mail); the third names nobody, and its link is as it was.
  await expect(ticketCard(page, toAna.id).getByTestId('link-recipient')).toHaveText('To Ana');
  await expect(ticketCard(page, toAna.id).getByTestId('link-recipient')).toHaveAttribute('title', `To Ana <${ana}>`);
  await expect(ticketCard(page, toBen.id).getByTestId('link-recipient')).toHaveText(`To ${ben}`);
  await expect(ticketCard(page, kept.id).getByTestId('link-recipient')).toHaveCount(0);
  const recipients = async () => {
    const now = new Map((await listTickets(holder!.api)).map((t) => [t.id, t.distribution]));
    return [toAna, toBen, kept].map((t) => [now.get(t.id)?.link, now.get(t.id)?.recipient ?? null]);
  };
  await expect.poll(recipients).toEqual([
    [linkOf(toAna).link, { name: 'Ana', email: ana }],
    [linkOf(toBen).link, { name: null, email: ben }],
    [linkOf(kept).link, null],
  ]);

  // Each has their own link by e-mail, once (the list with a bad line sent them nothing).
  const anaMail = await waitForMail(ana, RECIPIENT_LINK_MAIL, sentAt);
  const benMail = await waitForMail(ben, RECIPIENT_LINK_MAIL, sentAt);
  expect(anaMail.text).toContain('Hello Ana,');
  expect(anaMail.text).toContain(toAna.title);
  expect(anaMail.text).toContain(linkOf(toAna).link);
  expect(benMail.text).toContain(toBen.title);
  expect(benMail.text).toContain(linkOf(toBen).link);
  for (const other of [linkOf(toBen).link, linkOf(kept).link]) expect(anaMail.text).not.toContain(other);
  expect(benMail.text).not.toContain(linkOf(kept).link);
  expect(mailsTo(ana, RECIPIENT_LINK_MAIL, since)).toHaveLength(1);
  expect(mailsTo(ben, RECIPIENT_LINK_MAIL, since)).toHaveLength(1);
});

test("an account's tickets page makes one ticket's link for a named recipient, who has it by e-mail; the overview's card names them", async ({
  page,
}) => {
  holder = await ticketHolder(page, 'accnamer', { wallets: [[{ title: 'Fernhill Rangers' }]] });
  const fernhill = ticketTitled(holder.tickets, 'Fernhill Rangers');
  const tag = Math.random().toString(36).slice(2, 8);
  const dana = `dana-${tag}@recipient.test`;
  await setCredits(holder.userId, 5);
  await signIn(page, holder.user);
  await page.goto(`/dashboard/accounts/${fernhill.account_id}`);
  const card = page.locator(`[data-testid="account-ticket"][data-ticket-id="${fernhill.id}"]`);
  await expect(card.getByTestId('ticket-distributed')).toHaveText('Not Distributed');

  await card.getByRole('button', { name: 'Generate Link' }).click();
  const modal = settingsModal(page);
  const name = modal.getByLabel('Recipient name');
  const email = modal.getByLabel('Recipient email');
  await expect(name).toHaveAttribute('data-testid', 'recipient-name-input');
  await expect(email).toHaveAttribute('data-testid', 'recipient-email-input');
  // One ticket: no paste box.
  await expect(modal.getByTestId('recipients-input')).toHaveCount(0);

  // A bad address is said, and nothing is charged.
  await name.fill('Dana Reyes');
  await email.fill('dana@nope');
  await expect(modal.getByText('Recipient email must be a valid email address, or null for none')).toBeVisible();
  await modal.getByRole('button', { name: 'Generate Link', exact: true }).click();
  await expect(modal.getByTestId('recipients-blocked')).toBeVisible();
  await expect(modal).toBeVisible();
  expect((await listTickets(holder.api)).find((t) => t.id === fernhill.id)!.distribution).toBeNull();

  await email.fill(dana);
  await expect(modal.getByTestId('recipients-blocked')).toHaveCount(0);
  await expectNoA11yViolations(page, 'Distribution Settings with a recipient, on the account page');
  const sentAt = Date.now();
  await modal.getByRole('button', { name: 'Generate Link', exact: true }).click();
  await expect(modal).toHaveCount(0);
  await expect(page.getByText('Successfully started distribution for 1 ticket.')).toBeVisible();
  await expect(card.getByTestId('ticket-distributed')).toHaveText('Distributed');

  // The link is made for Dana, who has it by e-mail.
  const made = (await listTickets(holder.api)).find((t) => t.id === fernhill.id)!.distribution!;
  expect(made.recipient).toEqual({ name: 'Dana Reyes', email: dana });
  await expect(card.getByRole('link', { name: 'Open link (new tab)' })).toHaveAttribute('href', made.link);
  const mail = await waitForMail(dana, RECIPIENT_LINK_MAIL, sentAt);
  expect(mail.text).toContain('Hello Dana Reyes,');
  expect(mail.text).toContain(fernhill.title);
  expect(mail.text).toContain(made.link);
  expect(mailsTo(dana, RECIPIENT_LINK_MAIL, sentAt)).toHaveLength(1);

  // The tickets overview's card of the ticket names her.
  await page.goto('/dashboard');
  await expect(page.getByTestId('available-credits')).toHaveText('0');
  const overviewCard = ticketCard(page, fernhill.id);
  await expect(overviewCard.getByTestId('link-recipient')).toHaveText('To Dana Reyes');
  await expect(overviewCard.getByTestId('link-recipient')).toHaveAttribute('title', `To Dana Reyes <${dana}>`);
});
