import { expect, test, type Page } from '@playwright/test';
import { expectNoA11yViolations } from './support/axe';
import { demo, signIn } from './support/session';

/**
 * Dark mode: the page follows the system's preference (`prefers-color-scheme`, emulated here), the theme switch
 * (System, Light, Dark) overrides it and is remembered in this browser, the theme is in place before the app's own
 * script runs (no light flash on a dark page), and the dark pages keep WCAG AA contrast.
 */

/**
 * The relative luminance (0 black … 1 white) of the background an element shows: its own background colour, or that
 * of the nearest ancestor that paints one, in whatever colour space the CSS writes it (painted on a canvas and read
 * back as sRGB).
 */
function backgroundLuminance(page: Page, selector = 'body'): Promise<number> {
  return page.evaluate((sel) => {
    const canvas = document.createElement('canvas');
    canvas.width = canvas.height = 1;
    const context = canvas.getContext('2d', { willReadFrequently: true })!;
    const paint = (color: string) => {
      context.clearRect(0, 0, 1, 1);
      context.fillStyle = color;
      context.fillRect(0, 0, 1, 1);
      return [...context.getImageData(0, 0, 1, 1).data];
    };
    let element: Element | null = document.querySelector(sel);
    let rgba = [0, 0, 0, 0];
    while (element && rgba[3] === 0) {
      rgba = paint(getComputedStyle(element).backgroundColor);
      element = element.parentElement;
    }
    const [r, g, b] = rgba.slice(0, 3).map((v) => {
      const c = v / 255;
      return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  }, selector);
}

async function expectDark(page: Page, selector = 'body') {
  await expect.poll(() => backgroundLuminance(page, selector), { message: `${selector} is dark` }).toBeLessThan(0.05);
}

async function expectLight(page: Page, selector = 'body') {
  await expect
    .poll(() => backgroundLuminance(page, selector), { message: `${selector} is light` })
    .toBeGreaterThan(0.8);
}

const themeSwitch = (page: Page) => page.getByRole('radiogroup', { name: 'Theme' });

test.describe('with the system set to dark', () => {
  test.use({ colorScheme: 'dark' });

  test('the pages are dark, and axe finds no contrast problem on them', async ({ page }) => {
    await page.goto('/login');
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
    await expectDark(page);
    // The sign-in card, not only the page behind it.
    await expectDark(page, 'form');
    await expect(page.locator('html')).toHaveClass(/\bdark\b/);
    await expect(themeSwitch(page).getByRole('radio', { name: 'System' })).toBeChecked();
    await expectNoA11yViolations(page, 'sign-in, dark');

    await signIn(page, demo.user);
    await expect(page.getByTestId('ticket-card').first()).toBeVisible();
    await expectDark(page);
    await expectDark(page, '[data-testid="ticket-card"]');
    await expectNoA11yViolations(page, 'tickets overview, dark');
    await page.getByRole('button', { name: 'List view' }).click();
    await expect(page.getByTestId('tickets-table')).toBeVisible();
    await expectNoA11yViolations(page, 'tickets overview list, dark');
    await page.getByTestId('ticket-row').first().getByRole('checkbox').check();
    await expect(page.getByTestId('distribute-bar')).toBeVisible();
    await expectNoA11yViolations(page, 'selection bar, dark');
  });

  test('the admin pages are dark and keep their contrast', async ({ page }) => {
    await signIn(page, demo.admin);
    for (const path of ['/admin/users', '/admin/invites', '/admin/accounts']) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(page.getByText('Loading...')).toHaveCount(0);
      await expectDark(page);
      await expectNoA11yViolations(page, `${path}, dark`);
    }
  });

  test('the switch overrides the system, is remembered, and is in place before the app runs', async ({ page }) => {
    await page.goto('/login');
    await themeSwitch(page).getByRole('radio', { name: 'Light' }).check();
    await expectLight(page);
    await expect(page.locator('html')).not.toHaveClass(/\bdark\b/);
    expect(await page.evaluate(() => localStorage.getItem('seatlink.theme'))).toBe('light');

    await page.reload();
    await expect(themeSwitch(page).getByRole('radio', { name: 'Light' })).toBeChecked();
    await expectLight(page);

    // Chosen dark while the system is light; remembered, and in place before the app's own script runs: with that
    // script refused, the page is still dark (theme-boot.js set it; the app alone would not have).
    await page.emulateMedia({ colorScheme: 'light' });
    await themeSwitch(page).getByRole('radio', { name: 'Dark' }).check();
    await expectDark(page);
    const app = '**/assets/index-*.js';
    await page.route(app, (route) => route.abort());
    await page.reload();
    await expect(page.locator('html')).toHaveClass(/\bdark\b/);
    await expectDark(page);
    await page.unroute(app);

    // System follows the system again, also as it changes, from the first paint too.
    await page.reload();
    await themeSwitch(page).getByRole('radio', { name: 'System' }).check();
    await expectLight(page);
    expect(await page.evaluate(() => localStorage.getItem('seatlink.theme'))).toBeNull();
    await page.emulateMedia({ colorScheme: 'dark' });
    await expectDark(page);
    await page.route(app, (route) => route.abort());
    await page.reload();
    await expect(page.locator('html')).toHaveClass(/\bdark\b/);
  });

  test('the choice made in the sidebar holds on every page after signing in', async ({ page }) => {
    await signIn(page, demo.user);
    await expectDark(page);
    await themeSwitch(page).getByRole('radio', { name: 'Light' }).check();
    await expectLight(page);
    await page.getByRole('link', { name: 'Accounts' }).click();
    await expect(page.getByRole('heading', { name: 'Accounts', level: 1 })).toBeVisible();
    await expectLight(page);
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Accounts', level: 1 })).toBeVisible();
    await expectLight(page);
  });
});

/**
 * The colour of the veil behind the open modal: a native dialog's backdrop, or else the fixed layer that holds the
 * dialog and covers the screen. Its luminance ignores its transparency; alpha says how much it dims.
 */
function veil(page: Page): Promise<{ luminance: number; alpha: number }> {
  return page.evaluate(() => {
    const dialog = document.querySelector('dialog[open], [role="dialog"]')!;
    let color = dialog instanceof HTMLDialogElement ? getComputedStyle(dialog, '::backdrop').backgroundColor : '';
    for (let up = dialog.parentElement; !color && up; up = up.parentElement) {
      const style = getComputedStyle(up);
      if (style.position === 'fixed' && up.getBoundingClientRect().width >= window.innerWidth)
        color = style.backgroundColor;
    }
    const canvas = document.createElement('canvas');
    canvas.width = canvas.height = 1;
    const context = canvas.getContext('2d', { willReadFrequently: true })!;
    context.fillStyle = color;
    context.fillRect(0, 0, 1, 1);
    const [r, g, b, a] = [...context.getImageData(0, 0, 1, 1).data];
    const linear = (v: number) => (v / 255 <= 0.04045 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4);
    return { luminance: 0.2126 * linear(r!) + 0.7152 * linear(g!) + 0.0722 * linear(b!), alpha: a! / 255 };
  });
}

test.describe('a modal on a dark page', () => {
  test.use({ colorScheme: 'dark', viewport: { width: 390, height: 844 } });

  test('dims the page behind it with a dark veil, not a light one', async ({ page }) => {
    await signIn(page, demo.user);
    await page.getByRole('button', { name: 'Open menu' }).click();
    await expect(page.getByRole('dialog', { name: 'Menu' })).toBeVisible();
    await expectDark(page, 'dialog[open], [role="dialog"]');
    const { luminance, alpha } = await veil(page);
    expect(luminance).toBeLessThan(0.05);
    expect(alpha).toBeGreaterThan(0.3);
    await expectNoA11yViolations(page, 'the drawer, dark');
  });
});

test('with the system set to light the pages are light', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await expectLight(page);
  await expect(page.locator('html')).not.toHaveClass(/\bdark\b/);
});
