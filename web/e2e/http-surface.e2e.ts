import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { exited, freePort, root } from './support/processes';
import { nginxAvailable, nginxConfig } from './support/topology';
import { FIRST_SCREEN_ID } from '../src/lib/first-screen';

/**
 * What a browser gets at addresses that are not the product's pages: a plain 404 for a file that is not there or an
 * address of the server's own, robots.txt as a file, and the designed not-found screen for a page-like address the
 * router has no page for — from the API process that serves the dashboard, and from nginx with the compose site.
 */

async function expectPlainNotFound(page: Page, baseUrl: string, address: string) {
  const response = await page.goto(baseUrl + address);
  expect(response?.status(), address).toBe(404);
  expect(response?.headers()['content-type'], address).toContain('text/plain');
  await expect(page.locator('body')).toHaveText('Not Found');
  await expect(page.locator('#root')).toHaveCount(0);
}

/**
 * A shared ticket's page is answered with its own entry (link.html), and a well-formed code with the preload of the
 * link's data; an address under /l/ that is no page gets the dashboard (its router's not-found screen).
 */
async function expectLinkPageEntry(baseUrl: string) {
  const built = (name: string) => readFileSync(path.join(root, 'web/dist', name), 'utf8');
  const code = 'Ab_-'.repeat(5) + 'Zz';
  for (const address of [`/l/${code}`, `/L/${code}/`, '/l/not-a-link']) {
    const res = await fetch(baseUrl + address);
    expect(res.status, address).toBe(200);
    expect(await res.text(), address).toBe(built('link.html'));
    expect(res.headers.get('link'), address).toBe(
      address === '/l/not-a-link' ? null : `</v1/links/${code}>; rel=preload; as=fetch; crossorigin=use-credentials`,
    );
  }
  const extra = await fetch(`${baseUrl}/l/${code}/extra`);
  expect(await extra.text()).toBe(built('index.html'));
}

async function expectRobots(page: Page, baseUrl: string) {
  const response = await page.goto(`${baseUrl}/robots.txt`);
  expect(response?.status()).toBe(200);
  expect(response?.headers()['content-type']).toContain('text/plain');
  const text = await response?.text();
  expect(text).toContain('User-agent: *');
  expect(text).toMatch(/^Disallow: \/$/m);
  // The dashboard sends a crawler to the sign-in page; a shared ticket's page is never crawled.
  expect(text).toMatch(/^Allow: \/dashboard$/m);
  expect(text).not.toMatch(/^Allow: \/(l(\/|$)|$)/m);
}

/**
 * Each page the build wrote a file of its own for (page-chunks.json) is answered with it: its chunks named, for a page
 * only the signed-in see only to a request with a session cookie (whether the session is valid is the API's to say).
 */
async function expectPagePreloads(baseUrl: string) {
  const listed = JSON.parse(readFileSync(path.join(root, 'web/dist/page-chunks.json'), 'utf8')) as Record<
    string,
    { chunks: string[] }
  >;
  expect(Object.keys(listed)).toContain('/dashboard');
  const named = async (address: string, cookie?: string) => {
    const res = await fetch(baseUrl + address, { headers: cookie ? { cookie } : {} });
    expect(res.status, address).toBe(200);
    return [...(await res.text()).matchAll(/<link rel="modulepreload"[^>]*\shref="([^"]+)"/g)].map((m) => m[1]);
  };
  for (const [page, { chunks }] of Object.entries(listed)) {
    const address = page.replace(/:[\w-]+/g, '8c2f4a61-7d3e-4b9a-b5f0-1e6c9d2a7b34');
    if (chunks.length === 0) {
      // A page in the entry itself is listed for its first screen alone (the sign-in page), for visitors only: a
      // request with a session is sent on to the dashboard.
      const drawn = async (cookie?: string) =>
        (await (await fetch(baseUrl + address, { headers: cookie ? { cookie } : {} })).text()).includes(
          `id="${FIRST_SCREEN_ID}"`,
        );
      await expect.poll(() => drawn(), { message: page }).toBe(true);
      expect(await drawn('theme=dark; seatlink_session=x'), page).toBe(false);
      continue;
    }
    await expect
      .poll(() => named(address, 'theme=dark; seatlink_session=x'), { message: page })
      .toEqual(expect.arrayContaining(chunks));
    const signedIn = page.startsWith('/dashboard') || page.startsWith('/admin');
    const without = await named(address);
    expect(
      chunks.filter((c) => without.includes(c)),
      page,
    ).toEqual(signedIn ? [] : chunks);
  }
}

test('the API process answers files, its own addresses and unknown pages for what they are', async ({ page }) => {
  const base = process.env.E2E_BASE_URL ?? '';
  for (const address of ['/metrics', '/anything.php', '/.env', '/dashboard/accounts.json']) {
    await expectPlainNotFound(page, base, address);
  }
  await expectRobots(page, base);
  await expectLinkPageEntry(base);
  await expectPagePreloads(base);
  const unknown = await page.goto(`${base}/no-such-page/at-all`);
  expect(unknown?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Unexpected Application Error!' })).toBeVisible();
  await expect(page.getByRole('heading', { name: '404 Not Found' })).toBeVisible();
  const login = await page.goto(`${base}/login`);
  expect(login?.status()).toBe(200);
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
});

test.describe('through nginx with the compose site configuration', () => {
  test.skip(!nginxAvailable() && process.env.CI !== 'true', 'nginx is not installed');

  let nginx: ChildProcess | null = null;
  let dir = '';
  let base = '';
  test.beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'seatlink-nginx-'));
    // nginx's workers may run as another user: they need to reach their directories and the dashboard's files.
    chmodSync(dir, 0o755);
    const prefix = path.join(dir, 'nginx');
    mkdirSync(prefix);
    const webDist = path.join(dir, 'web');
    cpSync(path.join(root, 'web/dist'), webDist, { recursive: true });
    const port = await freePort();
    const apiPort = Number(new URL(process.env.E2E_BASE_URL ?? '').port);
    const conf = path.join(prefix, 'nginx.conf');
    writeFileSync(conf, nginxConfig({ port, apiPorts: [apiPort], simPort: await freePort(), webDist, prefix }));
    nginx = spawn('nginx', ['-c', conf, '-p', prefix], { stdio: ['ignore', 'ignore', 'inherit'] });
    base = `http://localhost:${port}`;
    const deadline = Date.now() + 20_000;
    for (;;) {
      const up = await fetch(`${base}/robots.txt`).then(
        (r) => r.ok,
        () => false,
      );
      if (up) break;
      if (Date.now() > deadline || nginx.exitCode !== null) throw new Error('nginx did not start');
      await new Promise((r) => setTimeout(r, 100));
    }
  });
  test.afterAll(async () => {
    if (nginx && nginx.exitCode === null) {
      nginx.kill('SIGTERM');
      await exited(nginx);
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('answers files and the server’s own addresses 404, robots.txt as a file, and pages with the dashboard', async ({
    page,
  }) => {
    for (const address of ['/metrics', '/anything.php', '/.env', '/wallet-sim/control/wallets']) {
      await expectPlainNotFound(page, base, address);
    }
    await expectRobots(page, base);
    await expectLinkPageEntry(base);
    await expectPagePreloads(base);
    // nginx cannot tell a page the router has from one it has not: the router's designed screen says it.
    await page.goto(`${base}/no-such-page/at-all`);
    await expect(page.getByRole('heading', { name: 'Unexpected Application Error!' })).toBeVisible();
    await expect(page.getByRole('heading', { name: '404 Not Found' })).toBeVisible();
    expect((await page.goto(`${base}/login`))?.status()).toBe(200);
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
    // The API's addresses still reach the API.
    expect((await page.goto(`${base}/v1/nothing-here`))?.status()).toBe(404);
    const health = await page.goto(`${base}/health`);
    expect(health?.headers()['content-type']).toContain('application/json');
  });
});
