import { expect, test, type Page } from '@playwright/test';
import { expectNoA11yViolations } from './support/axe';
import { demo, signIn } from './support/session';
import {
  addPass,
  apiSession,
  changeWalletPassword,
  createWallet,
  linkWallet,
  reauthenticate,
  setWalletLatency,
  WALLET_PASSWORD,
} from './support/wallet-sim';

/**
 * The Accounts overview and the account tickets page (docs/reference.md "Accounts screens"), against the real stack and
 * its wallet simulator, as the demo user. Its data is shared by every spec, so what a test changes (links, errors,
 * deletions) happens to wallets made for it through the simulator's control API, and totals are checked as differences.
 */

const JORDAN = { email: 'jordan@wallet.test', password: WALLET_PASSWORD };

function accountCard(page: Page, email: string) {
  return page.locator(`[data-testid="account-card"][data-email="${email}"]`);
}

/** Marks the document, so a test can tell later that the page was never reloaded. */
async function markDocument(page: Page) {
  await page.evaluate(() => ((window as unknown as { __e2eMark: number }).__e2eMark = 1));
}
async function expectSameDocument(page: Page) {
  expect(await page.evaluate(() => (window as unknown as { __e2eMark?: number }).__e2eMark)).toBe(1);
}

/** Keeps the text of every toast the page shows, from its first script on (a toast is gone a few seconds later). */
async function recordToasts(page: Page) {
  await page.addInitScript(() => {
    const seen = new WeakSet<Element>();
    const shown: string[] = ((window as unknown as { __e2eToasts: string[] }).__e2eToasts = []);
    new MutationObserver(() => {
      for (const toast of document.querySelectorAll('[data-rht-toaster] [role="status"]')) {
        if (seen.has(toast) || !toast.textContent) continue;
        seen.add(toast);
        shown.push(toast.textContent);
      }
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
}
async function toastsShown(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __e2eToasts: string[] }).__e2eToasts);
}

async function totalAccounts(page: Page): Promise<number> {
  await expect(page.getByTestId('account-card').first()).toBeVisible();
  return Number(await page.getByTestId('total-accounts').textContent());
}

test("says 'No accounts available' without accounts, and 'Failed to fetch accounts' when the list fails", async ({
  page,
}) => {
  await signIn(page, demo.user);
  let answer: 'empty' | 'fail' = 'empty';
  await page.route('**/v1/accounts', (route) =>
    answer === 'empty'
      ? route.fulfill({ json: { accounts: [] } })
      : route.fulfill({ status: 500, json: { statusCode: 500 } }),
  );
  await page.getByRole('link', { name: 'Accounts' }).click();
  await expect(page.getByRole('heading', { name: 'Accounts', level: 1 })).toBeVisible();
  await expect(page.getByTestId('accounts-empty')).toContainText('No accounts available');
  await expect(page.getByTestId('total-accounts')).toHaveText('0');
  await expectNoA11yViolations(page, 'accounts overview, empty');
  answer = 'fail';
  await page.reload();
  await expect(page.getByTestId('accounts-error')).toContainText('Failed to fetch accounts');
  await expect(page.getByRole('button', { name: 'Try again' })).toBeVisible();
});

test('links one account (a refused password first), shows it syncing in, and lists its tickets', async ({ page }) => {
  await recordToasts(page);
  await signIn(page, demo.user);
  await page.getByRole('link', { name: 'Accounts' }).click();
  await expect(page.getByRole('heading', { name: 'Accounts', level: 1 })).toBeVisible();
  const before = await totalAccounts(page);

  await page.getByRole('button', { name: 'Add Accounts' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Add Accounts' });
  await expect(dialog.getByLabel('Email', { exact: true })).toBeFocused();
  // Both fields are required (docs/reference.md "Form rules").
  await dialog.getByRole('button', { name: 'Add Account', exact: true }).click();
  await expect(dialog.getByText('Email is required')).toBeVisible();
  await expect(dialog.getByText('Password is required')).toBeVisible();
  await expectNoA11yViolations(page, 'add accounts dialog');

  await dialog.getByLabel('Email', { exact: true }).fill(JORDAN.email);
  await dialog.getByLabel('Password', { exact: true }).fill('not-the-password');
  await dialog.getByRole('button', { name: 'Add Account', exact: true }).click();
  await expect(dialog.getByTestId('add-accounts-error')).toHaveText(
    'The wallet service did not accept this e-mail and password',
  );
  await expect(dialog.getByRole('alert')).toHaveText('The wallet service did not accept this e-mail and password');

  await dialog.getByLabel('Password', { exact: true }).fill(JORDAN.password);
  await dialog.getByRole('button', { name: 'Add Account', exact: true }).click();
  await expect(page.getByText('Google account successfully connected')).toBeVisible();
  await expect(dialog).toBeHidden();
  // The refusal was said once, in the dialog: the only toast of it all is the success.
  expect(await toastsShown(page)).toEqual(['Google account successfully connected']);

  const card = accountCard(page, JORDAN.email);
  await expect(card).toBeVisible();
  await expect(card.getByRole('heading', { name: 'Jordan' })).toBeVisible();
  // The first sync brings the wallet's tickets in, live.
  await expect(card.getByTestId('account-ticket-count')).not.toHaveText('0', { timeout: 20_000 });
  await expect(card.getByTestId('sync-status')).toHaveText(/^Synced (just now|\d+ min ago)$/);
  await expect(card.getByTestId('distribution-percent')).toHaveText('0%');
  await expect(card.getByTestId('distribution-bar')).toHaveAttribute('data-tone', 'yellow');
  await expect(page.getByTestId('total-accounts')).toHaveText(String(before + 1));
  const count = (await card.getByTestId('account-ticket-count').textContent())!.trim();
  await expectNoA11yViolations(page, 'accounts overview');

  // The account's tickets page.
  await card.getByRole('link', { name: `View tickets of ${JORDAN.email}` }).click();
  await expect(page).toHaveURL(/\/dashboard\/accounts\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Jordan');
  await expect(page.getByTestId('account-last-synced')).toHaveText(
    /^Last synced: \d{2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}$/,
  );
  const tickets = page.getByTestId('account-ticket');
  await expect(tickets.first()).toBeVisible();
  await expect(tickets).toHaveCount(Number(count));
  // Jordan shares some passes with other demo wallets: those are duplicates here. The first ticket of Jordan's own.
  const first = tickets
    .filter({ has: page.getByTestId('ticket-distributed').getByText('Not Distributed', { exact: true }) })
    .first();
  await expect(first.getByTestId('ticket-distributed')).toHaveText('Not Distributed');
  await expect(first.getByTestId('ticket-section')).toContainText('Section');
  // Generate Link opens the Distribution Settings modal for this one ticket (distribution.e2e.ts goes on from there).
  const generate = first.getByRole('button', { name: 'Generate Link' });
  await expect(generate).toBeEnabled();
  await expectNoA11yViolations(page, 'account tickets');
  await generate.click();
  const settings = page.getByRole('dialog', { name: 'Distribution Settings' });
  await expect(settings.getByText('Configure distribution settings for 1 ticket', { exact: true })).toBeVisible();
  await settings.getByRole('button', { name: 'Cancel' }).click();
  await expect(settings).toBeHidden();
  await expect(generate).toBeFocused();

  await page.getByRole('link', { name: 'Back to Accounts' }).click();
  await expect(page).toHaveURL(/\/dashboard\/accounts$/);
});

test('links a batch with a result per account, and deletes one after confirming', async ({ page }) => {
  const [one, two] = [await createWallet('Batchone', 'First'), await createWallet('Batchtwo', 'Second')];
  await addPass(one.email, { title: 'Batch One FC' });
  await signIn(page, demo.user);
  await page.goto('/dashboard/accounts');
  const before = await totalAccounts(page);

  await page.getByRole('button', { name: 'Add Accounts' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Add Accounts' });
  await dialog.getByLabel('Email', { exact: true }).fill(one.email);
  await dialog.getByLabel('Password', { exact: true }).fill(one.password);
  await dialog.getByRole('button', { name: 'Add another account' }).click();
  await dialog.getByRole('button', { name: 'Add another account' }).click();
  await expect(dialog.getByTestId('account-entry')).toHaveCount(3);
  await dialog.getByLabel('Email (account 2)').fill(two.email);
  await dialog.getByLabel('Password (account 2)').fill(two.password);
  await dialog.getByLabel('Email (account 3)').fill('nobody-here@wallet.test');
  await dialog.getByLabel('Password (account 3)').fill('whatever');
  await dialog.getByRole('button', { name: 'Add 3 Accounts' }).click();

  // Each account is linked or refused on its own; the refused one stays in the form.
  const results = dialog.getByTestId('batch-results');
  await expect(results.getByTestId('batch-results-title')).toHaveText('2 of 3 accounts added');
  await expect(results.getByTestId('batch-result')).toHaveCount(1);
  await expect(results.locator('[data-email="nobody-here@wallet.test"]')).toContainText(
    'The wallet service did not accept this e-mail and password',
  );
  await expect(page.getByText('Google account successfully connected')).toBeVisible();
  await expect(dialog.getByTestId('account-entry')).toHaveCount(1);
  await expect(dialog.getByLabel('Email', { exact: true })).toHaveValue('nobody-here@wallet.test');
  await expectNoA11yViolations(page, 'add accounts dialog with results');
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();

  await expect(accountCard(page, one.email)).toBeVisible();
  await expect(accountCard(page, two.email)).toBeVisible();
  await expect(page.getByTestId('total-accounts')).toHaveText(String(before + 2));
  await expect(accountCard(page, one.email).getByTestId('account-ticket-count')).toHaveText('1', { timeout: 20_000 });

  // Search, sort and filter.
  await page.getByLabel('Search accounts').fill('batch');
  await expect(page.getByTestId('account-card')).toHaveCount(2);
  await page.getByTestId('account-sort-tickets').click();
  await expect(page.getByTestId('account-sort-tickets')).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('account-card').first()).toHaveAttribute('data-email', one.email);
  await page.getByTestId('account-sort-tickets').click();
  await expect(page.getByTestId('account-card').first()).toHaveAttribute('data-email', two.email);
  await page.getByTestId('account-sort-name').click();
  await expect(page.getByTestId('account-card').first()).toHaveAttribute('data-email', one.email);
  await page.getByLabel('Filter').selectOption('pending');
  await expect(page.getByTestId('account-card')).toHaveCount(1);
  await page.getByLabel('Filter').selectOption('distributed');
  await expect(page.getByTestId('accounts-empty')).toContainText('No accounts available');
  await page.getByRole('button', { name: 'Clear Filters' }).click();
  await expect(page.getByLabel('Search accounts')).toHaveValue('');
  await expect(page.getByTestId('account-card')).toHaveCount(before + 2);

  // Delete asks first; Cancel keeps the account.
  const card = accountCard(page, two.email);
  await card.getByRole('button', { name: `Delete ${two.email}` }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete this account?' });
  await expect(confirm).toBeVisible();
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await expectNoA11yViolations(page, 'delete account confirmation');
  await page.keyboard.press('Escape');
  await expect(confirm).toBeHidden();
  await expect(card).toBeVisible();

  await card.getByRole('button', { name: `Delete ${two.email}` }).click();
  await confirm.getByRole('button', { name: 'Delete account' }).click();
  await expect(page.getByText('Account successfully deleted')).toBeVisible();
  await expect(card).toHaveCount(0);
  await expect(page.getByTestId('total-accounts')).toHaveText(String(before + 1));
  // Gone on the server too.
  await page.reload();
  await expect(accountCard(page, one.email)).toBeVisible();
  await expect(accountCard(page, two.email)).toHaveCount(0);
});

test("a batch with some accounts added says how many and which were not, and why; none added is 'Failed to add accounts'", async ({
  page,
}) => {
  const good = await createWallet('Mixedgood', 'Added');
  const wrong = await createWallet('Mixedwrong', 'Refused');
  const unknown = `nobody-${Date.now().toString(36)}@wallet.test`;
  const refusal = 'The wallet service did not accept this e-mail and password';
  await signIn(page, demo.user);
  await page.goto('/dashboard/accounts');
  const before = await totalAccounts(page);

  await page.getByRole('button', { name: 'Add Accounts' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Add Accounts' });
  await dialog.getByLabel('Email', { exact: true }).fill(good.email);
  await dialog.getByLabel('Password', { exact: true }).fill(good.password);
  await dialog.getByRole('button', { name: 'Add another account' }).click();
  await dialog.getByRole('button', { name: 'Add another account' }).click();
  await dialog.getByLabel('Email (account 2)').fill(wrong.email);
  await dialog.getByLabel('Password (account 2)').fill('Not-the-password1!');
  await dialog.getByLabel('Email (account 3)').fill(unknown);
  await dialog.getByLabel('Password (account 3)').fill(WALLET_PASSWORD);
  await dialog.getByRole('button', { name: 'Add 3 Accounts' }).click();

  // Some added: how many, and each one that was not with its reason; no red failure anywhere.
  const results = dialog.getByTestId('batch-results');
  await expect(results).toHaveAttribute('role', 'status');
  await expect(results.getByTestId('batch-results-title')).toHaveText('1 of 3 accounts added');
  await expect(results).toContainText('These could not be added:');
  await expect(results.getByTestId('batch-result')).toHaveCount(2);
  await expect(results.locator(`[data-email="${wrong.email}"]`)).toHaveText(`${wrong.email}: ${refusal}`);
  await expect(results.locator(`[data-email="${unknown}"]`)).toHaveText(`${unknown}: ${refusal}`);
  await expect(page.getByText('Google account successfully connected')).toBeVisible();
  await expect(page.getByText('Failed to add accounts')).toHaveCount(0);
  await expect(dialog.getByRole('alert')).toHaveCount(0);
  // The two refused stay in the form, ready to correct; the added one is on the page behind.
  await expect(dialog.getByTestId('account-entry')).toHaveCount(2);
  await expect(dialog.getByLabel('Email (account 1)')).toHaveValue(wrong.email);
  await expect(dialog.getByLabel('Email (account 2)')).toHaveValue(unknown);
  await expectNoA11yViolations(page, 'add accounts dialog, some added');

  // Sent again as they are: none added, and only then the red 'Failed to add accounts'.
  await dialog.getByLabel('Password (account 1)').fill('Still-not-it1!');
  await dialog.getByRole('button', { name: 'Add 2 Accounts' }).click();
  await expect(results).toHaveAttribute('data-outcome', 'none');
  await expect(results).toHaveAttribute('role', 'alert');
  await expect(results.getByTestId('batch-results-title')).toHaveText('Failed to add accounts');
  await expect(results.getByTestId('batch-result')).toHaveCount(2);
  await expect(results).not.toContainText('These could not be added:');
  await expectNoA11yViolations(page, 'add accounts dialog, none added');

  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(accountCard(page, good.email)).toBeVisible();
  await expect(accountCard(page, wrong.email)).toHaveCount(0);
  await expect(page.getByTestId('total-accounts')).toHaveText(String(before + 1));
});

test('shows a sync in progress and the tickets it brings, live, on the accounts page and the overview', async ({
  page,
}) => {
  const wallet = await createWallet('Livewire');
  await addPass(wallet.email, { title: 'Livewire Base FC' });
  const api = await apiSession(demo.user);
  try {
    const account = await linkWallet(api, wallet);
    await signIn(page, demo.user);
    await markDocument(page);
    await page.getByRole('link', { name: 'Accounts' }).click();
    const card = accountCard(page, wallet.email);
    await expect(card.getByTestId('account-ticket-count')).toHaveText('1', { timeout: 20_000 });

    // A slow wallet service, so the sync's progress stays on screen long enough to see.
    await addPass(wallet.email, { title: 'Livewire Arrival FC' });
    await setWalletLatency(700);
    try {
      // A healthy account offers no Re-authenticate; signing it in again elsewhere (the API) starts a sync now.
      await expect(card.getByRole('button', { name: /Re-authenticate/ })).toHaveCount(0);
      await reauthenticate(api, account.id, wallet);
      await expect(card.getByTestId('sync-progress')).toBeVisible({ timeout: 15_000 });
      await expect(card.getByRole('progressbar', { name: `Sync of ${wallet.email}` })).toBeVisible();
      await expect(card.getByTestId('sync-progress')).toBeHidden({ timeout: 20_000 });
    } finally {
      await setWalletLatency(0);
    }
    await expect(card.getByTestId('account-ticket-count')).toHaveText('2');

    // The overview shows a ticket that arrives while it is open.
    await page.getByRole('link', { name: 'Tickets', exact: true }).click();
    const search = page.getByPlaceholder('Search title, subtitle, venue, seat, account...');
    await search.fill('livewire');
    await expect(page.getByTestId('ticket-title')).toHaveText(['Livewire Base FC', 'Livewire Arrival FC']);
    const total = Number((await page.getByTestId('total-tickets').textContent())?.replace(/,/g, ''));
    await addPass(wallet.email, { title: 'Livewire Late Kickoff' });
    await reauthenticate(api, account.id, wallet);
    await expect(page.getByTestId('ticket-title').filter({ hasText: 'Livewire Late Kickoff' })).toBeVisible({
      timeout: 20_000,
    });
    await expect(page.getByTestId('total-tickets')).toHaveText((total + 1).toLocaleString('en-GB'));
    await expect(search).toHaveValue('livewire');
    await expectSameDocument(page);
  } finally {
    await api.dispose();
  }
});

test('puts an account whose wallet password changed in error, and Re-authenticate brings it back', async ({ page }) => {
  const wallet = await createWallet('Lockout');
  const api = await apiSession(demo.user);
  const newPassword = 'Changed-456!';
  try {
    await linkWallet(api, wallet);
    // The wallet's owner changes the password there: the product's sign-in is revoked, and the next sync fails.
    await changeWalletPassword(wallet.email, newPassword);
  } finally {
    await api.dispose();
  }

  await signIn(page, demo.user);
  await page.goto('/dashboard/accounts');
  const card = accountCard(page, wallet.email);
  const banner = card.getByTestId('auth-required');
  await expect(banner).toBeVisible({ timeout: 20_000 });
  await expect(banner).toContainText('Authentication Required');
  // Re-authenticate is offered by the account that needs it, once: in its banner.
  await expect(card.getByRole('button', { name: /Re-authenticate/ })).toHaveCount(1);
  await expect(banner.getByRole('button', { name: `Re-authenticate ${wallet.email}` })).toBeVisible();
  const needsAttention = Number(await page.getByTestId('total-needs-attention').textContent());
  expect(needsAttention).toBeGreaterThanOrEqual(1);
  await expectNoA11yViolations(page, 'accounts overview with an account in error');

  await banner.getByRole('button', { name: 'Re-authenticate' }).click();
  const dialog = page.getByRole('dialog', { name: 'Re-authenticate' });
  await dialog.getByLabel('Password', { exact: true }).fill(wallet.password);
  await dialog.getByRole('button', { name: 'Re-authenticate' }).click();
  await expect(dialog.getByTestId('reauth-error')).toHaveText(
    'The wallet service did not accept this e-mail and password',
  );
  await expectNoA11yViolations(page, 're-authenticate dialog');

  await dialog.getByLabel('Password', { exact: true }).fill(newPassword);
  await dialog.getByRole('button', { name: 'Re-authenticate' }).click();
  await expect(page.getByText('Account re-authenticated')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(banner).toBeHidden();
  await expect(card.getByRole('button', { name: /Re-authenticate/ })).toHaveCount(0);
  await expect(page.getByTestId('total-needs-attention')).toHaveText(String(needsAttention - 1));
  await expect(card.getByTestId('sync-status')).toHaveText(/^(Syncing\.\.\.|Synced just now|Synced \d+ min ago)$/);
});

test('an unknown account id shows a not-found state inside the frame', async ({ page }) => {
  await signIn(page, demo.user);
  await page.goto('/dashboard/accounts/3f6c1a2e-0000-4000-8000-000000000001');
  await expect(page.getByTestId('account-not-found')).toContainText('Account not found');
  await expect(page.getByRole('link', { name: 'Back to Accounts' })).toBeVisible();
  await expectNoA11yViolations(page, 'account not found');
});
