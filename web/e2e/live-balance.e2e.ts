import { expect, test } from '@playwright/test';
import { expectNoA11yViolations } from './support/axe';
import { demo, setCreditsFromRow, signIn, userRowOnAdminPage } from './support/session';

test('an admin sets credits and the user’s open dashboard shows the new balance live, without a reload', async ({
  browser,
}) => {
  const adminContext = await browser.newContext();
  const userContext = await browser.newContext();
  const adminPage = await adminContext.newPage();
  const userPage = await userContext.newPage();
  try {
    await signIn(userPage, demo.user);
    const credits = userPage.getByTestId('available-credits');
    await expect(credits).toBeVisible();
    await expectNoA11yViolations(userPage, 'tickets overview');
    let reloaded = false;
    userPage.on('framenavigated', (frame) => {
      if (frame === userPage.mainFrame()) reloaded = true;
    });

    await signIn(adminPage, demo.admin);
    await adminPage.goto('/admin/users');
    const row = await userRowOnAdminPage(adminPage, demo.user.email);
    const field = row.getByLabel(`Credits for ${demo.user.email}`);
    // The field holds the balance the row shows, as a value (not a faint placeholder).
    await expect(field).toHaveValue(/^\d+$/);
    expect((await row.getByTestId('user-balance').textContent())?.replace(/,/g, '')).toBe(await field.inputValue());
    await setCreditsFromRow(row, demo.user.email, '1234');
    await expect(adminPage.getByText('Credits updated successfully')).toBeVisible();
    await expect(row.getByTestId('user-balance')).toContainText('1,234');
    await expect(field).toHaveValue('1234');

    await expect(credits).toHaveText('1,234');
    expect(reloaded).toBe(false);

    // And again, to show it is not a one-off.
    await setCreditsFromRow(row, demo.user.email, '7');
    await expect(credits).toHaveText('7');
    expect(reloaded).toBe(false);
  } finally {
    await adminContext.close();
    await userContext.close();
  }
});

test('on a network that drops WebSockets, live updates come by long polling', async ({ browser }) => {
  const adminContext = await browser.newContext();
  const userContext = await browser.newContext();
  const userPage = await userContext.newPage();
  const adminPage = await adminContext.newPage();
  try {
    // Every WebSocket opens and is closed before the server's handshake, as a proxy that does not carry them would.
    let webSockets = 0;
    await userPage.routeWebSocket('**/socket.io/**', (ws) => {
      webSockets++;
      void ws.close();
    });
    const polls: string[] = [];
    userPage.on('response', (res) => {
      const url = new URL(res.url());
      if (url.pathname.startsWith('/socket.io/') && url.searchParams.get('transport') === 'polling' && res.ok()) {
        polls.push(url.search);
      }
    });
    await signIn(userPage, demo.user);
    const credits = userPage.getByTestId('available-credits');
    await expect(credits).toBeVisible();
    // Long polling has connected: the handshake, then polls carrying its session id.
    await expect.poll(() => polls.filter((q) => q.includes('sid=')).length, { timeout: 30_000 }).toBeGreaterThan(0);
    expect(webSockets).toBeGreaterThan(0);

    await signIn(adminPage, demo.admin);
    await adminPage.goto('/admin/users');
    const row = await userRowOnAdminPage(adminPage, demo.user.email);
    await setCreditsFromRow(row, demo.user.email, '4321');
    await expect(adminPage.getByText('Credits updated successfully')).toBeVisible();
    await expect(credits).toHaveText('4,321');
  } finally {
    await adminContext.close();
    await userContext.close();
  }
});
