import { expect, type Page } from '@playwright/test';

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
