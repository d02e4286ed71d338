import { expect, test, type Browser, type BrowserContextOptions, type Page } from '@playwright/test';
import { demo, signIn } from './support/session';

/**
 * A page answered by the server names its own code in `<link rel="modulepreload">` (web/vite.page-speed.ts
 * `pageChunks`, services/server web-app.ts), so a phone downloads it beside the entry instead of after it has run.
 * Each page checked here runs exactly the scripts its answer named (the entry's and its own), no fewer and no more:
 * a module moved to another chunk, or a page whose modules changed, shows up here. The named scripts, and only they,
 * start with V8's compile hint.
 */

/** The scripts a page's answer names (the entry, its imports, the page's own chunks), as paths. */
function namedScripts(html: string): Set<string> {
  const named = [...html.matchAll(/<(?:script type="module"[^>]*src|link rel="modulepreload"[^>]*href)="([^"]+)"/g)];
  return new Set(named.map((m) => m[1]!));
}

/**
 * Opens `path` in a browser of its own (nothing cached: every script it runs is fetched) and gives the scripts it ran
 * once settled, with their text, and the scripts its answer named.
 */
async function scriptsRunAt(
  browser: Browser,
  storageState: BrowserContextOptions['storageState'],
  path: string,
  ready: (page: Page) => Promise<void>,
) {
  const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL, storageState });
  try {
    const page = await context.newPage();
    return await scriptsRunIn(page, path, () => ready(page));
  } finally {
    await context.close();
  }
}

async function scriptsRunIn(page: Page, path: string, ready: () => Promise<void>) {
  const ran = new Map<string, Promise<string>>();
  const onResponse = (response: { url(): string; text(): Promise<string> }) => {
    const { pathname } = new URL(response.url());
    if (pathname.startsWith('/assets/') && pathname.endsWith('.js')) ran.set(pathname, response.text());
  };
  page.on('response', onResponse);
  let answer: string;
  try {
    answer = (await (await page.goto(path))?.text()) ?? '';
    await ready();
    await page.waitForLoadState('networkidle');
  } finally {
    page.off('response', onResponse);
  }
  return {
    ran: new Map(await Promise.all([...ran].map(async ([p, text]) => [p, await text] as const))),
    named: namedScripts(answer),
  };
}

test('each signed-in page runs the scripts its answer named, and the overview no schema, QR or Top Up code', async ({
  page,
  browser,
}) => {
  await signIn(page, demo.admin);
  const signedIn = await page.context().storageState();
  const checks: Array<[string, (page: Page) => Promise<void>]> = [
    ['/dashboard', (p) => expect(p.getByRole('heading', { name: 'Tickets Overview' })).toBeVisible()],
    ['/dashboard/accounts', (p) => expect(p.getByRole('heading', { level: 1, name: 'Accounts' })).toBeVisible()],
    ['/admin/users', (p) => expect(p.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible()],
  ];
  for (const [path, ready] of checks) {
    const { ran, named } = await scriptsRunAt(browser, signedIn, path, ready);
    // The toasts' chunk (lib/toast.ts) is loaded once the page is idle, on purpose not named: it is not needed to draw
    // the page, and named it would be downloaded beside what is (its code is goober's, whose style element it names).
    const loadedWhenIdle = (text: string) => text.includes('_goober');
    expect(
      [...ran].filter(([p, text]) => !named.has(p) && !loadedWhenIdle(text)).map(([p]) => p),
      `${path}: scripts run but not named`,
    ).toEqual([]);
    expect(
      [...named].filter((p) => !ran.has(p)),
      `${path}: scripts named but not run`,
    ).toEqual([]);
    // More than the entry and its imports: the page's own chunks were named.
    expect(named.size, path).toBeGreaterThan(8);
    // What a page starts with carries V8's compile hint as its first line (web/vite.page-speed.ts COMPILE_HINT);
    // what it loads later, on demand or when idle, does not.
    for (const [script, text] of ran) {
      expect(text.startsWith('//# allFunctionsCalledOnLoad\n'), `${path}: ${script} hinted`).toBe(named.has(script));
    }
    if (path === '/dashboard') {
      for (const [script, text] of ran) {
        // zod's parser (its issue codes) and the chunks that open on demand stay off the overview's load.
        expect(text, script).not.toContain('invalid_type');
        expect(script).not.toMatch(/qr-code|top-up-modal|stripe/);
      }
    }
  }
});
