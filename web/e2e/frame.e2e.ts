import { expect, test } from '@playwright/test';
import { expectNoA11yViolations } from './support/axe';
import { demo, signIn } from './support/session';

test.describe('the mobile drawer (docs/reference.md#dashboard-frame)', () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test('moves the focus into itself, keeps it there, and gives it back to the menu button', async ({ page }) => {
    await signIn(page, demo.admin);
    const menu = page.getByRole('button', { name: 'Open menu' });
    await expect(menu).toHaveAttribute('aria-expanded', 'false');
    await expectNoA11yViolations(page, 'tickets overview, small screen');

    await menu.focus();
    await page.keyboard.press('Enter');
    const drawer = page.getByRole('dialog', { name: 'Menu' });
    await expect(drawer).toBeVisible();
    await expect(menu).toHaveAttribute('aria-expanded', 'true');
    const close = drawer.getByRole('button', { name: 'Close menu' });
    await expect(close).toBeFocused();
    await expectNoA11yViolations(page, 'drawer');

    // Tab walks the drawer's controls in order and wraps round to the first; the page behind is out of reach.
    const order = [
      drawer.getByRole('link', { name: 'Tickets', exact: true }),
      drawer.getByRole('link', { name: 'Accounts', exact: true }),
      drawer.getByRole('link', { name: 'Link activity', exact: true }),
      drawer.getByRole('link', { name: 'Settings', exact: true }),
      drawer.getByRole('button', { name: 'Admin' }),
      drawer.getByRole('link', { name: 'Users' }),
      drawer.getByRole('link', { name: 'Invites' }),
      drawer.getByRole('link', { name: 'All Accounts' }),
      drawer.getByRole('link', { name: 'Duplicate Tickets' }),
      // The theme switch: one stop, its chosen option (System unless another was chosen).
      drawer.getByRole('radio', { name: 'System' }),
      drawer.getByRole('button', { name: 'Logout' }),
      close,
    ];
    for (const control of order) {
      await page.keyboard.press('Tab');
      await expect(control).toBeFocused();
    }
    await page.keyboard.press('Shift+Tab');
    await expect(drawer.getByRole('button', { name: 'Logout' })).toBeFocused();

    await page.keyboard.press('Escape');
    await expect(drawer).toBeHidden();
    await expect(menu).toBeFocused();
    await expect(menu).toHaveAttribute('aria-expanded', 'false');

    // Following a link closes it too.
    await menu.click();
    await drawer.getByRole('link', { name: 'Invites' }).click();
    await expect(page).toHaveURL(/\/admin\/invites$/);
    await expect(drawer).toBeHidden();
    await expect(page.getByRole('heading', { name: 'Invite Codes' })).toBeVisible();
  });

  test('closes when the window widens to where the sidebar shows, leaving the page usable', async ({ page }) => {
    await signIn(page, demo.user);
    await page.getByRole('button', { name: 'Open menu' }).click();
    const drawer = page.getByRole('dialog', { name: 'Menu' });
    await expect(drawer).toBeVisible();
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect(drawer).toBeHidden();
    await page.getByRole('link', { name: 'Accounts' }).click();
    await expect(page).toHaveURL(/\/dashboard\/accounts$/);
  });
});

test.describe('moving between pages', () => {
  test('follows links, Back and Forward without reading session storage', async ({ page }) => {
    // Every read and write of the tab's session storage, from the first script on (app/router-window.ts: the router
    // is given none, so a new tab never waits for the browser to open it).
    await page.addInitScript(() => {
      const used: string[] = [];
      (window as unknown as { sessionStorageUsed: string[] }).sessionStorageUsed = used;
      for (const name of ['getItem', 'setItem', 'removeItem'] as const) {
        const own = Storage.prototype[name] as (this: Storage, ...args: string[]) => unknown;
        Storage.prototype[name] = function (this: Storage, ...args: string[]) {
          if (this === window.sessionStorage) used.push(`${name}(${args[0]})`);
          return own.apply(this, args);
        } as never;
      }
    });
    await signIn(page, demo.user);
    await page.getByRole('link', { name: 'Accounts', exact: true }).click();
    await expect(page).toHaveURL(/\/dashboard\/accounts$/);
    await page.goBack();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('heading', { name: 'Tickets Overview' })).toBeVisible();
    await page.goForward();
    await expect(page).toHaveURL(/\/dashboard\/accounts$/);
    await page.reload();
    await expect(page).toHaveURL(/\/dashboard\/accounts$/);
    expect(
      await page.evaluate(() => (window as unknown as { sessionStorageUsed: string[] }).sessionStorageUsed),
    ).toEqual([]);
  });
});
