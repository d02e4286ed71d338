import { randomBytes } from 'node:crypto';
import {
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  expect,
  type Page,
  request,
} from '@playwright/test';
import type { DistributeResponse, Ticket, TicketsResponse, User } from '@seatlink/contracts';
import pg from 'pg';
import { createVerifiedUser, demo, type NewUser } from './session';
import { apiSession, createWallet, linkWallet, simControlHeaders, type TestWallet } from './wallet-sim';

/**
 * Set-up for the distribution, link and audit specs: users of their own (never the demo user, whose untouched tickets
 * other specs count), with wallets and passes made through the simulator's control API, credits set through the admin
 * API, and links made through the product's own API where a test is not about making them.
 */

/**
 * A person's phone browser. The claim of a link refuses clients that say they are automated, and headless Chromium
 * says so in its user agent: a recipient's browser context takes this one.
 */
export const PERSON_USER_AGENT =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';

/** The phones of a test's recipients: each a browser of its own with a person's user agent, closed by `closeAll`. */
export class RecipientPhones {
  private contexts: BrowserContext[] = [];

  async open(browser: Browser): Promise<Page> {
    const context = await browser.newContext({ userAgent: PERSON_USER_AGENT, viewport: { width: 375, height: 812 } });
    this.contexts.push(context);
    return context.newPage();
  }

  async closeAll(): Promise<void> {
    for (const context of this.contexts.splice(0)) await context.close();
  }
}

export interface PassInput {
  title: string;
  subtitle?: string;
  venue?: string;
  seat?: { section: string; row: string; seat: string };
  /** The pass's next game (its start ISO). */
  nextGame?: { title: string; date: string };
  /** Given, the pass has this id and a barcode of its own; see `shared` of {@link ticketHolder}. */
  id?: string;
}

/** 16 random digits. */
function uniqueBarcode(): string {
  return Array.from(randomBytes(16), (byte) => String(byte % 10)).join('');
}

/** Adds a pass to each wallet named (one pass held in several wallets when `pass.id` is given), visible at once. */
export async function addPassTo(walletEmails: readonly string[], pass: PassInput): Promise<void> {
  const api = await request.newContext({ baseURL: process.env.E2E_BASE_URL });
  try {
    // The product knows a pass by its barcode: one barcode of its own per shared pass, so no other test's pass is it.
    const barcode = pass.id ? uniqueBarcode() : undefined;
    for (const email of walletEmails) {
      const res = await api.post(`/wallet-sim/control/wallets/${encodeURIComponent(email)}/passes`, {
        headers: simControlHeaders(),
        data: {
          ...(pass.id ? { id: pass.id, barcode } : {}),
          event: { title: pass.title, subtitle: pass.subtitle ?? 'Season Ticket 2026/27' },
          venue: { name: pass.venue ?? 'Test Arena' },
          ...(pass.seat ? { seat: pass.seat } : {}),
          ...(pass.nextGame ? { next_game: pass.nextGame } : {}),
          visible_after_ms: 0,
        },
      });
      expect(res.status(), await res.text()).toBe(201);
    }
  } finally {
    await api.dispose();
  }
}

/** Sets a user's credits as an admin does (PUT /v1/admin/users/{id}/credits), with a reason (the audit log shows it). */
export async function setCredits(userId: string, credits: number, reason = 'Credits for the test'): Promise<void> {
  const admin = await apiSession(demo.admin);
  try {
    const res = await admin.put(`/v1/admin/users/${userId}/credits`, { data: { credits, reason } });
    expect(res.status(), await res.text()).toBe(200);
  } finally {
    await admin.dispose();
  }
}

/** The API session user's tickets (GET /v1/tickets). */
export async function listTickets(api: APIRequestContext): Promise<Ticket[]> {
  const res = await api.get('/v1/tickets');
  expect(res.status()).toBe(200);
  return ((await res.json()) as TicketsResponse).tickets;
}

/** Waits until the API session user holds `count` tickets (a sync brings them in). */
export async function waitForTickets(api: APIRequestContext, count: number): Promise<Ticket[]> {
  let tickets: Ticket[] = [];
  await expect
    .poll(async () => (tickets = await listTickets(api)).length, {
      message: `${count} tickets synced`,
      timeout: 30_000,
    })
    .toBe(count);
  return tickets;
}

/** The ticket of the given title among `tickets`. */
export function ticketTitled(tickets: readonly Ticket[], title: string): Ticket {
  const ticket = tickets.find((t) => t.title === title);
  if (!ticket) throw new Error(`no ticket "${title}" among ${tickets.map((t) => t.title).join(', ')}`);
  return ticket;
}

export interface TicketHolder {
  user: NewUser;
  userId: string;
  /** An API session of the user (dispose it). */
  api: APIRequestContext;
  wallets: TestWallet[];
  tickets: Ticket[];
}

/**
 * A new verified user (verified through `page`) holding a wallet per entry of `wallets`, each linked and synced, with
 * the passes given; `shared` passes (give each an id) sit in every wallet, the same pass held twice: one ticket each,
 * all but the first of them duplicates.
 */
export async function ticketHolder(
  page: Page,
  name: string,
  { wallets, shared = [] }: { wallets: PassInput[][]; shared?: PassInput[] },
): Promise<TicketHolder> {
  const user = await createVerifiedUser(page, name);
  const api = await apiSession(user);
  const made: TestWallet[] = [];
  for (const [i, passes] of wallets.entries()) {
    const wallet = await createWallet(`${name}${i + 1}`);
    for (const pass of passes) await addPassTo([wallet.email], pass);
    made.push(wallet);
  }
  for (const pass of shared)
    await addPassTo(
      made.map((w) => w.email),
      pass,
    );
  // One wallet after the other, so which copy of a shared pass comes first (the one kept) is settled.
  let expected = 0;
  for (const [i, wallet] of made.entries()) {
    await linkWallet(api, wallet);
    expected += wallets[i]!.length + shared.length;
    await waitForTickets(api, expected);
  }
  if (shared.length > 0) {
    await expect
      .poll(async () => (await listTickets(api)).filter((t) => t.is_duplicate).length, {
        message: 'duplicates flagged',
        timeout: 20_000,
      })
      .toBe(shared.length * (made.length - 1));
  }
  const me = await api.get('/v1/me');
  expect(me.status()).toBe(200);
  const { id: userId } = (await me.json()) as User;
  return { user, userId, api, wallets: made, tickets: await listTickets(api) };
}

/** Makes links through the API (POST /v1/tickets/distribute) for a test that is not about making them. */
export async function distributeByApi(
  api: APIRequestContext,
  ticketIds: string[],
  settings: { expiry_date?: string | null; max_clicks?: number | null; label?: string | null; pin?: string } = {},
): Promise<DistributeResponse> {
  const res = await api.post('/v1/tickets/distribute', {
    data: {
      ticket_ids: ticketIds,
      expiry_date: settings.expiry_date ?? null,
      max_clicks: settings.max_clicks ?? null,
      label: settings.label ?? null,
      ...(settings.pin ? { pin: settings.pin } : {}),
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  const answer = (await res.json()) as DistributeResponse;
  expect(answer.distributions).toHaveLength(ticketIds.length);
  return answer;
}

/** Recalls a link through the API. */
export async function recallByApi(api: APIRequestContext, distributionId: string): Promise<void> {
  const res = await api.post(`/v1/distributions/${distributionId}/recall`);
  expect(res.status(), await res.text()).toBe(200);
}

/** A link's code: the last part of its address. */
export function linkCode(link: string): string {
  return new URL(link).pathname.split('/').pop()!;
}

/**
 * Lets a link's expiry pass: it is moved into the past in the link's counter, which the recipient page and a claim
 * decide on (an expiry can only be set an hour or more ahead, and a test does not wait an hour). The server then
 * treats it as any link whose time is up: the recipient page says 'Expired' and a claim is refused.
 */
export async function letLinkExpire(link: string): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.E2E_DATABASE_URL });
  await client.connect();
  try {
    const { rowCount } = await client.query(
      `update link_counters set expires_at = now() - interval '1 minute' where code = $1`,
      [linkCode(link)],
    );
    expect(rowCount, `link ${link} counted`).toBe(1);
  } finally {
    await client.end();
  }
}

/**
 * A moment `ms` from now, up to the whole minute, as a date picker shows it in the browser's time zone ('31/12/2030,
 * 14:05', en-GB) and as the API gets it (ISO).
 */
export async function localDateTimeIn(page: Page, ms: number): Promise<{ enGb: string; iso: string }> {
  return page.evaluate((offset) => {
    const at = new Date(Math.ceil((Date.now() + offset) / 60_000) * 60_000);
    const pad = (n: number) => String(n).padStart(2, '0');
    const enGb = `${pad(at.getDate())}/${pad(at.getMonth() + 1)}/${at.getFullYear()}, ${pad(at.getHours())}:${pad(at.getMinutes())}`;
    return { enGb, iso: at.toISOString() };
  }, ms);
}

/** The tickets overview card of a ticket. */
export function ticketCard(page: Page, ticketId: string) {
  return page.locator(`[data-testid="ticket-card"][data-ticket-id="${ticketId}"]`);
}
