import { expect, test, type Page } from '@playwright/test';
import { FIRST_SCREEN_ID } from '../src/lib/first-screen';
import { demo, signIn } from './support/session';

/**
 * A signed-in page paints its first screen with its HTML (web/src/app/first-screen.tsx, written into the page's own
 * file by the build): the frame and the overview's heading show before any script has run, exactly where the app
 * then draws them (the sign-in page paints itself whole), and the app takes their place in the commit that shows the
 * page, whatever that page turns out to be (the overview, the sign-in page for a session that has ended, an error
 * screen).
 */

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
const HEADING = 'Tickets Overview';
const SUBTITLE = 'Tickets can take up to 15 minutes to appear after syncing.';

/** The error screen's title (src/app/route-error.tsx). */
const ROUTER_ERROR_TITLE = 'Unexpected Application Error!';

const firstScreen = (page: Page) => page.locator(`#${FIRST_SCREEN_ID}`);

/** The layout shifts the page has had so far (their sum, as CLS adds them up within a page's life). */
const layoutShift = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        new PerformanceObserver((list, observer) => {
          observer.disconnect();
          resolve(list.getEntries().reduce((sum, e) => sum + (e as unknown as { value: number }).value, 0));
        }).observe({ type: 'layout-shift', buffered: true });
        // No entry at all: nothing shifted.
        setTimeout(() => resolve(0), 500);
      }),
  );

test('the overview paints its frame and heading before any script, where the app then draws them', async ({
  page,
  browser,
}) => {
  await page.setViewportSize(PHONE);
  await signIn(page, demo.user);
  const signedIn = await page.context().storageState();

  // The page's answer holds them, inert; without a session the answer is the plain one.
  const html = await (await page.request.get('/dashboard')).text();
  expect(html).toContain(`id="${FIRST_SCREEN_ID}" inert="" aria-hidden="true"`);
  expect(html).toContain(HEADING);
  expect(html).toContain(SUBTITLE);
  const visitor = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
  expect(await (await visitor.request.get('/dashboard')).text()).not.toContain(FIRST_SCREEN_ID);
  await visitor.close();

  for (const viewport of [PHONE, DESKTOP]) {
    // With no script at all, the first screen is what shows.
    const noScript = await browser.newContext({
      baseURL: process.env.E2E_BASE_URL,
      storageState: signedIn,
      viewport,
      javaScriptEnabled: false,
    });
    const still = await noScript.newPage();
    await still.goto('/dashboard');
    const painted = firstScreen(still).locator('h1');
    await expect(painted).toHaveText(HEADING);
    await expect(firstScreen(still).getByText(SUBTITLE)).toBeVisible();
    const paintedAt = await painted.boundingBox();
    // On a wide screen the sidebar too: its theme switch sits above the e-mail, which the first screen cannot know.
    const themeAt = viewport === DESKTOP ? await firstScreen(still).getByTestId('theme-switch').boundingBox() : null;
    await noScript.close();

    // The app draws them in the same places, the first screen is gone, and nothing moved.
    const live = await browser.newContext({ baseURL: process.env.E2E_BASE_URL, storageState: signedIn, viewport });
    const app = await live.newPage();
    await app.goto('/dashboard');
    const heading = app.getByRole('heading', { level: 1, name: HEADING });
    await expect(heading).toBeVisible();
    await expect(app.locator('[data-testid="ticket-card"]').first()).toBeVisible();
    await expect(firstScreen(app)).toHaveCount(0);
    expect(await heading.boundingBox(), `heading at ${viewport.width} px`).toEqual(paintedAt);
    if (themeAt) expect(await app.getByTestId('theme-switch').boundingBox()).toEqual(themeAt);
    expect(await layoutShift(app)).toBeLessThan(0.01);
    await live.close();
  }
});

test('the sign-in page paints itself before any script, where the app then draws it, and signs in at once', async ({
  browser,
}) => {
  const baseURL = process.env.E2E_BASE_URL;
  for (const viewport of [PHONE, DESKTOP]) {
    // With no script at all, the first screen is the whole sign-in page (inert: nothing there can be typed into).
    const noScript = await browser.newContext({ baseURL, viewport, javaScriptEnabled: false });
    const still = await noScript.newPage();
    await still.goto('/login');
    const painted = firstScreen(still).locator('h1');
    await expect(painted).toHaveText('Sign in');
    await expect(firstScreen(still).locator('form button[type="submit"]')).toHaveText('Sign in');
    const paintedAt = await painted.boundingBox();
    const submitAt = await firstScreen(still).locator('form button[type="submit"]').boundingBox();
    await noScript.close();

    const live = await browser.newContext({ baseURL, viewport });
    const app = await live.newPage();
    await app.goto('/login');
    // Typed into the moment the page is there: the fields are the app's, not the picture's.
    await app.getByLabel('Email').fill(demo.user.email);
    await app.getByLabel('Password', { exact: true }).fill(demo.user.password);
    await expect(firstScreen(app)).toHaveCount(0);
    const heading = app.getByRole('heading', { level: 1, name: 'Sign in' });
    expect(await heading.boundingBox(), `heading at ${viewport.width} px`).toEqual(paintedAt);
    expect(await app.getByRole('button', { name: 'Sign in' }).boundingBox()).toEqual(submitAt);
    expect(await layoutShift(app)).toBeLessThan(0.01);
    await app.getByRole('button', { name: 'Sign in' }).click();
    await expect(app.getByRole('heading', { name: HEADING })).toBeVisible();
    await live.close();
  }
});

test('a session that has ended: the first screen goes and the sign-in page works', async ({ browser }) => {
  const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL, viewport: PHONE });
  const { hostname } = new URL(process.env.E2E_BASE_URL!);
  await context.addCookies([{ name: 'seatlink_session', value: 'ended', domain: hostname, path: '/' }]);
  const page = await context.newPage();
  const answer = await page.goto('/dashboard');
  // The cookie alone gets the page's own file, first screen and all: the app finds the session gone.
  expect(await answer!.text()).toContain(FIRST_SCREEN_ID);
  await expect(page).toHaveURL(/\/login$/);
  await expect(firstScreen(page)).toHaveCount(0);
  await page.getByLabel('Email').fill(demo.user.email);
  await page.getByLabel('Password', { exact: true }).fill(demo.user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: HEADING })).toBeVisible();
  await context.close();
});

test('a page whose code cannot load: the first screen goes and the error shows', async ({ page }) => {
  await signIn(page, demo.user);
  await page.route(/\/assets\/tickets-overview-route-[\w-]+\.js$/, (route) => route.abort());
  await page.goto('/dashboard');
  await expect(page.getByText(ROUTER_ERROR_TITLE)).toBeVisible();
  await expect(firstScreen(page)).toHaveCount(0);
});
