import { expect, request, type Locator, type Page } from '@playwright/test';
import type { InviteCodeResponse } from '@seatlink/contracts';
import pg from 'pg';
import { linkIn, waitForMail } from './mail-catcher';
import { datePicker, typeInPicker } from './date-picker';

export const demo = {
  admin: { email: 'admin@seatlink.test', password: 'Admin123!' },
  user: { email: 'user@seatlink.test', password: 'User1234!' },
} as const;

/** Signs in through the sign-in screen and waits for the dashboard. */
export async function signIn(page: Page, who: { email: string; password: string }) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password', { exact: true }).fill(who.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { name: 'Tickets Overview' })).toBeVisible();
}

/** Someone a test makes for itself (never the demo users). */
export interface NewUser {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
}

/** A password that meets every rule (docs/reference.md "Password rules"). */
export const STRONG_PASSWORD = 'Seat-link9';

/** A user with a unique, lower-case address (the server stores addresses lower-cased). */
export function newUser(name: string, password = STRONG_PASSWORD): NewUser {
  const unique = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  return { email: `${name}-${unique}@example.com`, password, firstName: 'Erin', lastName: 'Tester' };
}

/** The calendar date (YYYY-MM-DD) `days` days after today in UTC. */
export function utcDate(days: number): string {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + days))
    .toISOString()
    .slice(0, 10);
}

/** The row of one invite code on /admin/invites. */
export function inviteRow(page: Page, code: string): Locator {
  return page.locator(`[data-testid="invite-row"][data-code="${code}"]`);
}

/** The row of one user on /admin/users (newest users come first). */
export function userRow(page: Page, email: string): Locator {
  return page.locator(`[data-testid="user-row"][data-email="${email}"]`);
}

/**
 * Generates an invite code with the form on /admin/invites (the page of a signed-in admin), expiring on the earliest
 * date the form allows. Checks the toast and answers the new code.
 */
export async function generateInviteCode(page: Page, maxUses: number): Promise<string> {
  if (!/\/admin\/invites$/.test(page.url())) await page.goto('/admin/invites');
  const form = page.getByTestId('invite-form');
  await form.getByLabel('Max Uses').fill(String(maxUses));
  // The earliest date the form allows, as it shows it (en-GB, dd/mm/yyyy).
  const earliest = (await form.getByTestId('expires-at-earliest').textContent()) ?? '';
  expect(earliest).toMatch(/^\d{2}\/\d{2}\/\d{4}$/);
  await typeInPicker(datePicker(form, 'Expiry Date'), earliest);
  const created = page.waitForResponse(
    (res) => res.request().method() === 'POST' && new URL(res.url()).pathname === '/v1/admin/invites',
  );
  await form.getByRole('button', { name: 'Generate Code' }).click();
  const response = await created;
  expect(response.status()).toBe(201);
  const { invite_code } = (await response.json()) as InviteCodeResponse;
  // Earlier toasts of the same text may still be on screen.
  await expect(page.getByText('New invite code generated').first()).toBeVisible();
  await expect(inviteRow(page, invite_code.code)).toBeVisible();
  return invite_code.code;
}

/** Fills the registration form on /register and presses 'Create Account'. */
export async function submitRegistration(page: Page, user: NewUser, inviteCode: string) {
  await page.goto('/register');
  await page.getByLabel('Email', { exact: true }).fill(user.email);
  await page.getByLabel('First Name', { exact: true }).fill(user.firstName);
  await page.getByLabel('Last Name', { exact: true }).fill(user.lastName);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByLabel('Confirm Password', { exact: true }).fill(user.password);
  await page.getByLabel('Invite Code', { exact: true }).fill(inviteCode);
  await page.getByRole('button', { name: 'Create Account' }).click();
}

/** Fills the sign-in form and presses 'Sign in', without waiting for where it leads. */
export async function submitSignIn(page: Page, who: { email: string; password: string }) {
  await page.goto('/login');
  await page.getByLabel('Email', { exact: true }).fill(who.email);
  await page.getByLabel('Password', { exact: true }).fill(who.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/**
 * A new user registered through the API with an invite code of their own (made by the demo admin through the API),
 * not verified yet. Answers the user and when the registration began (to find its e-mail).
 */
export async function createUnverifiedUser(name: string): Promise<NewUser & { registeredAt: number }> {
  const user = newUser(name);
  const registeredAt = Date.now();
  const api = await request.newContext({ baseURL: process.env.E2E_BASE_URL });
  try {
    const login = await api.post('/v1/auth', { data: { ...demo.admin, token: null } });
    expect(login.status(), await login.text()).toBe(200);
    const invite = await api.post('/v1/admin/invites', { data: { max_uses: 1, expires_at: utcDate(2) } });
    expect(invite.status(), await invite.text()).toBe(201);
    const { invite_code } = (await invite.json()) as InviteCodeResponse;
    const registered = await api.post('/v1/auth/register', {
      data: {
        email: user.email,
        first_name: user.firstName,
        last_name: user.lastName,
        password: user.password,
        invite_code: invite_code.code,
        token: null,
      },
    });
    expect(registered.status(), await registered.text()).toBe(201);
  } finally {
    await api.dispose();
  }
  return { ...user, registeredAt };
}

/** A new user registered as createUnverifiedUser does, then verified by opening the e-mailed link in `page`. */
export async function createVerifiedUser(page: Page, name: string): Promise<NewUser> {
  const { registeredAt, ...user } = await createUnverifiedUser(name);
  const mail = await waitForMail(user.email, /Verify your email address/, registeredAt);
  await page.goto(linkIn(mail));
  await expect(page.getByTestId('verify-status')).toHaveAttribute('data-state', 'success');
  return user;
}

/**
 * Sets a user's credits from their row on the admin users page as an admin does: the value, Set, then the dialog's
 * reason and Set credits (the dialog closes once the server has set them).
 */
export async function setCreditsFromRow(row: Locator, email: string, credits: string, reason = 'Credits for the test') {
  await row.getByLabel(`Credits for ${email}`).fill(credits);
  await row.getByRole('button', { name: 'Set', exact: true }).click();
  const dialog = row.page().getByRole('alertdialog', { name: 'Set credits' });
  await dialog.getByLabel('Reason').fill(reason);
  await dialog.getByRole('button', { name: 'Set credits' }).click();
  await expect(dialog).toBeHidden();
}

/**
 * A user's row on the admin users page, paging on until it shows: the list is newest first, and the tests that ran
 * before have registered users of their own.
 */
export async function userRowOnAdminPage(page: Page, email: string) {
  const row = page.locator(`[data-testid="user-row"][data-email="${email}"]`);
  await expect(page.getByTestId('user-row').first()).toBeVisible();
  const next = page.getByRole('navigation', { name: 'Pagination' }).getByRole('button', { name: 'Next' });
  for (let pageNumber = 0; pageNumber < 50 && (await row.count()) === 0; pageNumber++) {
    if (!(await next.isVisible()) || !(await next.isEnabled())) break;
    const firstEmail = await page.getByTestId('user-row').first().getAttribute('data-email');
    await next.click();
    await expect(page.getByTestId('user-row').first()).not.toHaveAttribute('data-email', firstEmail ?? '');
  }
  await expect(row).toHaveCount(1);
  return row;
}

/**
 * Makes every session of the user look signed in two days ago with no confirmation since (the browser tests' step-up
 * lasts a day), in the stack's database: the next call that needs a fresh proof asks for one.
 */
export async function ageSessionsOf(email: string): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.E2E_DATABASE_URL });
  await client.connect();
  try {
    await client.query(
      `update sessions s set created_at = now() - interval '2 days', verified_at = null
         from users u where u.id = s.user_id and u.email = $1`,
      [email],
    );
  } finally {
    await client.end();
  }
}
