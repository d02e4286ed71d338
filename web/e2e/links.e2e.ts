import { expect, test, type Page } from '@playwright/test';
import { expectNoA11yViolations } from './support/axe';
import { signIn } from './support/session';
import {
  distributeByApi,
  letLinkExpire,
  listTickets,
  RecipientPhones,
  recallByApi,
  setCredits,
  ticketCard,
  ticketHolder,
  ticketTitled,
  type TicketHolder,
} from './support/distribution';

/**
 * The recipient page of a shared ticket (/l/{code}): public, outside the dashboard, for phones first. 'Add to wallet'
 * claims the link (one counted click) and goes on to the wallet's page that saves the pass; a link that reached its
 * click limit, expired or was recalled says so (docs/reference.md "Link states"). The owner of each link is a user of
 * the test's own.
 */

let holder: TicketHolder | undefined;
const phones = new RecipientPhones();
test.afterEach(async () => {
  await holder?.api.dispose();
  holder = undefined;
  await phones.closeAll();
});

const stateOf = (page: Page) => page.getByTestId('link-card');
const statePanel = (page: Page) => page.getByTestId('link-state');

/** The owner's count of a link's clicks. */
async function clicksOf(holderOf: TicketHolder, ticketId: string): Promise<number | undefined> {
  return (await listTickets(holderOf.api)).find((t) => t.id === ticketId)?.distribution?.clicks;
}

test("a recipient adds a shared ticket to their wallet and lands on the wallet's save page; then the link says 'Limit Reached'", async ({
  page,
  browser,
}) => {
  holder = await ticketHolder(page, 'sharer', {
    wallets: [
      [{ title: 'Kestrel County', venue: 'Kestrel Park', seat: { section: 'North Stand', row: 'C', seat: '14' } }],
    ],
  });
  const kestrel = ticketTitled(holder.tickets, 'Kestrel County');
  await setCredits(holder.userId, 5);
  const [link] = (await distributeByApi(holder.api, [kestrel.id], { max_clicks: 1 })).distributions;

  const phone = await phones.open(browser);
  await phone.goto(link!.link);
  await expect(phone.getByText('A ticket was shared with you')).toBeVisible();
  await expect(stateOf(phone)).toHaveAttribute('data-state', 'active');
  await expect(phone.getByRole('heading', { level: 1 })).toHaveText('Kestrel County');
  await expect(phone.getByTestId('link-subtitle')).toHaveText('Season Ticket 2026/27');
  await expect(phone.getByTestId('link-venue')).toHaveText('Kestrel Park');
  await expect(phone.getByTestId('link-seat')).toHaveText('Section North Stand, Row C, Seat 14');
  await expect(phone).toHaveTitle('Kestrel County · Seatlink');
  await expect(phone.getByText('The ticket is saved to your own wallet.')).toBeVisible();
  await expectNoA11yViolations(phone, 'recipient page');
  // Opening the page counts nothing: only the claim does (link previews and chat apps fetch links too).
  expect(await clicksOf(holder, kestrel.id)).toBe(0);

  await phone.getByRole('button', { name: 'Add to wallet' }).click();
  await expect(phone).toHaveURL(/\/wallet-sim\/save\/[^/]+$/);
  await expect(phone.getByText('Saved to your wallet')).toBeVisible();
  await expect(phone.getByText('Kestrel County')).toBeVisible();
  await expect.poll(() => clicksOf(holder!, kestrel.id)).toBe(1);

  // Back on the phone that claimed it, the ticket is theirs: not "ask for a new link", but open it again.
  await phone.goto(link!.link);
  await expect(stateOf(phone)).toHaveAttribute('data-state', 'limit_reached');
  await expect(phone.getByTestId('link-yours')).toContainText('You saved this ticket on this device');
  await expect(phone.getByTestId('link-state')).toHaveCount(0);
  await expect(phone.getByRole('link', { name: 'Open in wallet' })).toHaveAttribute('href', /\/wallet-sim\/save\//);
  await expectNoA11yViolations(phone, 'recipient page, claimed on this device');

  // On anyone else's phone the one click it allowed is used: the link says so, and offers nothing to press.
  const other = await phones.open(browser);
  await other.goto(link!.link);
  await expect(stateOf(other)).toHaveAttribute('data-state', 'limit_reached');
  await expect(statePanel(other).getByRole('heading')).toHaveText('Limit Reached');
  await expect(statePanel(other)).toContainText('Ask the person who shared it for a new link.');
  await expect(other.getByRole('heading', { level: 1 })).toHaveText('Kestrel County');
  await expect(other.getByRole('button', { name: 'Add to wallet' })).toHaveCount(0);
  await expect(other.getByTestId('link-yours')).toHaveCount(0);
  await expectNoA11yViolations(other, "recipient page, 'Limit Reached'");
});

test('a recipient gives their name as they claim, and the holder sees "claimed by" live on the ticket and in the bell', async ({
  page,
  browser,
}) => {
  holder = await ticketHolder(page, 'named', { wallets: [[{ title: 'Oakmere Rovers' }]] });
  const oakmere = ticketTitled(holder.tickets, 'Oakmere Rovers');
  await setCredits(holder.userId, 5);
  const [link] = (await distributeByApi(holder.api, [oakmere.id], { max_clicks: 1 })).distributions;
  await signIn(page, holder.user);
  const card = ticketCard(page, oakmere.id);
  await expect(card.getByTestId('link-clicks')).toHaveText('0 / 1');
  await expect(card.getByTestId('link-claimant')).toHaveCount(0);

  const phone = await phones.open(browser);
  await phone.goto(link!.link);
  const name = phone.getByLabel('Your name (optional)');
  await expect(name).toBeVisible();
  await expect(phone.getByText('The sender sees who saved their ticket')).toBeVisible();
  await name.fill('Sam Okafor');
  await phone.getByRole('button', { name: 'Add to wallet' }).click();
  await expect(phone).toHaveURL(/\/wallet-sim\/save\/[^/]+$/);

  // Live on the holder's card: who, when (today: the time alone) and on what.
  await expect(card.getByTestId('link-clicks')).toHaveText('1 / 1');
  await expect(card.getByTestId('link-claimant')).toHaveText(/^claimed by Sam Okafor · \d{2}:\d{2} · Android phone$/);
  // The bell says who too.
  await page.getByTestId('notification-bell').locator('visible=true').click();
  const note = page.getByTestId('notification').filter({ hasText: 'New claim on Oakmere Rovers' });
  await expect(note.getByTestId('notification-claimant')).toHaveText('claimed by Sam Okafor · Android phone');
  // And the list says it after a reload, from the server.
  await page.reload();
  await expect(ticketCard(page, oakmere.id).getByTestId('link-claimant')).toHaveText(/^claimed by Sam Okafor · /);
});

test('a claim refused meanwhile turns the open page into why: the limit reached elsewhere, or the link recalled', async ({
  page,
  browser,
}) => {
  holder = await ticketHolder(page, 'refusals', { wallets: [[{ title: 'Larch Vale' }, { title: 'Maple Rangers' }]] });
  const larch = ticketTitled(holder.tickets, 'Larch Vale');
  const maple = ticketTitled(holder.tickets, 'Maple Rangers');
  await setCredits(holder.userId, 10);
  const [larchLink] = (await distributeByApi(holder.api, [larch.id], { max_clicks: 1 })).distributions;
  const [mapleLink] = (await distributeByApi(holder.api, [maple.id])).distributions;

  // Two people have the link open; the first to claim takes its one click.
  const first = await phones.open(browser);
  const second = await phones.open(browser);
  await first.goto(larchLink!.link);
  await second.goto(larchLink!.link);
  await expect(second.getByRole('button', { name: 'Add to wallet' })).toBeVisible();
  await first.getByRole('button', { name: 'Add to wallet' }).click();
  await expect(first).toHaveURL(/\/wallet-sim\/save\//);
  await second.getByRole('button', { name: 'Add to wallet' }).click();
  await expect(stateOf(second)).toHaveAttribute('data-state', 'limit_reached');
  await expect(statePanel(second).getByRole('heading')).toHaveText('Limit Reached');
  await expect(second).toHaveURL(larchLink!.link);
  // The owner's count follows the claim once its click is recorded and projected.
  await expect.poll(() => clicksOf(holder!, larch.id)).toBe(1);

  // The owner recalls a link while it is open: the claim is refused, and the page says it was withdrawn.
  await second.goto(mapleLink!.link);
  await expect(second.getByRole('button', { name: 'Add to wallet' })).toBeVisible();
  await recallByApi(holder.api, mapleLink!.distribution_id);
  await second.getByRole('button', { name: 'Add to wallet' }).click();
  await expect(stateOf(second)).toHaveAttribute('data-state', 'recalled');
  await expect(statePanel(second).getByRole('heading')).toHaveText('Link withdrawn');
  await expect(statePanel(second)).toContainText('The owner has withdrawn this ticket, so the link no longer works.');
  // Opened afresh, it says the same, with its badge.
  await second.reload();
  await expect(stateOf(second)).toHaveAttribute('data-state', 'recalled');
  await expect(second.getByText('Withdrawn', { exact: true })).toBeVisible();
  await expect(second.getByRole('button', { name: 'Add to wallet' })).toHaveCount(0);
  await expectNoA11yViolations(second, 'recipient page, recalled');
});

test("an expired link says 'Expired' and when it stopped working", async ({ page, browser }) => {
  holder = await ticketHolder(page, 'expiry', { wallets: [[{ title: 'Nettle Borough' }]] });
  const nettle = ticketTitled(holder.tickets, 'Nettle Borough');
  await setCredits(holder.userId, 5);
  const expiresAt = new Date(Date.now() + 61 * 60_000).toISOString();
  const [link] = (await distributeByApi(holder.api, [nettle.id], { expiry_date: expiresAt })).distributions;

  const phone = await phones.open(browser);
  await phone.goto(link!.link);
  await expect(phone.getByText(/^This link works until \d{2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}\./)).toBeVisible();

  // The hour passes.
  await letLinkExpire(link!.link);
  await phone.reload();
  await expect(stateOf(phone)).toHaveAttribute('data-state', 'expired');
  await expect(statePanel(phone).getByRole('heading')).toHaveText('Expired');
  await expect(
    statePanel(phone).getByText(
      /^This link stopped working on \d{2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}\. Ask the person who shared it for a new link\.$/,
    ),
  ).toBeVisible();
  await expect(phone.getByText('Expired', { exact: true }).first()).toBeVisible();
  await expect(phone.getByRole('button', { name: 'Add to wallet' })).toHaveCount(0);
  await expectNoA11yViolations(phone, 'recipient page, expired');
  expect(await clicksOf(holder, nettle.id)).toBe(0);
});

test('a shared ticket’s page loads alone (no dashboard, no session check), dark as the system is, within the Content-Security-Policy', async ({
  page,
  browser,
}) => {
  holder = await ticketHolder(page, 'alone', { wallets: [[{ title: 'Alder Athletic' }]] });
  const alder = ticketTitled(holder.tickets, 'Alder Athletic');
  await setCredits(holder.userId, 5);
  const [link] = (await distributeByApi(holder.api, [alder.id])).distributions;
  // The dashboard's entry script, as its page names it.
  const dashboard = await (await fetch(`${process.env.E2E_BASE_URL}/login`)).text();
  const dashboardEntry = /<script type="module"[^>]* src="([^"]+)"/.exec(dashboard)?.[1];
  expect(dashboardEntry).toMatch(/^\/assets\/.+\.js$/);

  const phone = await phones.open(browser);
  await phone.emulateMedia({ colorScheme: 'dark' });
  // An inline script the policy refused (the theme set before the first paint) is reported here.
  await phone.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) =>
      console.error(`CSP ${event.violatedDirective} ${event.blockedURI}`),
    );
  });
  const errors: string[] = [];
  phone.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  const asked: string[] = [];
  phone.on('request', (req) => asked.push(new URL(req.url()).pathname));
  const opened = await phone.goto(link!.link);
  expect(opened?.status()).toBe(200);
  await expect(phone.getByRole('heading', { level: 1 })).toHaveText('Alder Athletic');
  await expect(phone.getByRole('button', { name: 'Add to wallet' })).toBeVisible();
  await expect(phone.locator('html')).toHaveClass(/\bdark\b/);
  await expectNoA11yViolations(phone, 'recipient page, dark');
  expect(errors).toEqual([]);
  expect(asked).toContain(new URL(link!.link).pathname.replace(/^\/l\//, '/v1/links/'));
  expect(asked).not.toContain(dashboardEntry);
  expect(asked).not.toContain('/v1/session');

  // An address under /l/ that is no page is still the dashboard's not-found screen, 404.
  const extra = await phone.goto(`${link!.link}/extra`);
  expect(extra?.status()).toBe(404);
  await expect(phone.getByRole('heading', { name: '404 Not Found' })).toBeVisible();
});

test('an address that is no link says so, and an automated client cannot claim', async ({ page, browser }) => {
  const phone = await phones.open(browser);
  await phone.goto('/l/AAAAAAAAAAAAAAAAAAAAAA');
  await expect(stateOf(phone)).toHaveAttribute('data-state', 'not_found');
  await expect(statePanel(phone).getByRole('heading')).toHaveText('Link not found');
  await expectNoA11yViolations(phone, 'recipient page, not found');
  // Not even the shape of a link: the page does not ask the server.
  let asked = false;
  phone.on('request', (req) => (asked ||= new URL(req.url()).pathname.startsWith('/v1/links/')));
  await phone.goto('/l/not-a-link');
  await expect(statePanel(phone).getByRole('heading')).toHaveText('Link not found');
  expect(asked).toBe(false);

  // Headless Chromium says it is automated: it sees the ticket, but its claim counts nothing.
  holder = await ticketHolder(page, 'robots', { wallets: [[{ title: 'Oak Rovers' }]] });
  const oak = ticketTitled(holder.tickets, 'Oak Rovers');
  await setCredits(holder.userId, 5);
  const [link] = (await distributeByApi(holder.api, [oak.id])).distributions;
  await page.goto(link!.link);
  await page.getByRole('button', { name: 'Add to wallet' }).click();
  await expect(page.getByTestId('claim-error')).toHaveText('Links are claimed by people, not by automated clients');
  await expect(page).toHaveURL(link!.link);
  expect(await clicksOf(holder, oak.id)).toBe(0);
});
