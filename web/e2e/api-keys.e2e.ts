import { expect, request, test } from '@playwright/test';
import { expectNoA11yViolations } from './support/axe';
import { createVerifiedUser, signIn } from './support/session';

/**
 * API keys from the Settings page: made with a name and scopes, shown once, working as `Authorization: Bearer` on the
 * calls of those scopes (as another system would call), listed with their last use, revoked after a confirmation.
 */
test('creates an API key, calls with it from outside, sees its use, and revokes it', async ({ page }) => {
  const user = await createVerifiedUser(page, 'api-key');
  await signIn(page, user);
  await page.goto('/dashboard/settings');
  const section = page.getByRole('region', { name: 'API keys' });
  await expect(section.getByTestId('api-keys-none')).toHaveText('No API keys yet.');
  await section.getByRole('button', { name: 'Create an API key' }).click();
  await section.getByLabel('Name').fill('Box office');
  // Reading tickets and links is ticked; making links is not, until asked for.
  await expect(section.getByLabel(/Read your tickets/)).toBeChecked();
  await expect(section.getByLabel(/Make, edit and recall links/)).not.toBeChecked();
  await expectNoA11yViolations(page, 'creating an API key');
  await section.getByRole('button', { name: 'Create key' }).click();
  const value = section.getByTestId('api-key-value');
  await expect(value).toHaveText(/^sl_live_[A-Za-z0-9_-]{43}$/);
  const key = (await value.textContent())!;
  await section.getByRole('button', { name: 'Done' }).click();
  await expect(section.getByTestId('api-key')).toContainText('Box office');
  await expect(section.getByTestId('api-key')).toContainText(`${key.slice(0, 12)}…`);
  await expect(section.getByTestId('api-key')).toContainText('Not used yet');
  await expect(section.getByText(key)).toHaveCount(0);

  // Another system: no cookie, the key.
  const outside = await request.newContext({ baseURL: process.env.E2E_BASE_URL });
  try {
    const call = (path: string) => outside.get(path, { headers: { authorization: `Bearer ${key}` } });
    const tickets = await call('/v1/tickets');
    expect(tickets.status()).toBe(200);
    expect(tickets.headers()['ratelimit-remaining']).toMatch(/^\d+$/);
    expect((await call('/v1/me')).status()).toBe(403);

    await page.reload();
    await expect(section.getByTestId('api-key')).toContainText('Last used');
    await section.getByRole('button', { name: 'Revoke Box office' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Revoke this API key?' });
    await expect(confirm).toContainText('"Box office" stops working at once');
    await confirm.getByRole('button', { name: 'Revoke' }).click();
    await expect(section.getByTestId('api-keys-none')).toBeVisible();
    const refused = await call('/v1/tickets');
    expect(refused.status()).toBe(401);
    expect((await refused.json()) as { code: string }).toMatchObject({ code: 'API_KEY_INVALID' });
  } finally {
    await outside.dispose();
  }
});
