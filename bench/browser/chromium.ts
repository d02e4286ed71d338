/**
 * Chromium for the browser benchmarks: the machine's own (CHROMIUM_PATH, default /usr/bin/chromium) launched through
 * playwright-core with the very flags the browser tests use (web/playwright.config.ts), nothing downloaded.
 */
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import e2eConfig from '../../web/playwright.config.js';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The command-line flags of the browser tests' Chromium. */
export const CHROMIUM_FLAGS: readonly string[] = e2eConfig.use?.launchOptions?.args ?? [];

/** A desktop window, as the dashboard is used at a desk (1,280 × 800, one device pixel per CSS pixel). */
export const DESKTOP = { width: 1280, height: 800 } as const;

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_FLAGS], headless: true });
}

/** A browser context signed in as the product's user: its session cookie set for the product's address. */
export async function signedInContext(
  browser: Browser,
  product: { baseUrl: string; sessionToken: string },
  viewport: { width: number; height: number } = DESKTOP,
): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport, deviceScaleFactor: 1 });
  await context.addCookies([
    { name: 'seatlink_session', value: product.sessionToken, url: product.baseUrl, httpOnly: true, sameSite: 'Lax' },
  ]);
  return context;
}
