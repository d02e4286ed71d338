import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { generate } from 'otplib';
import { expectNoA11yViolations } from './support/axe';
import {
  adminQuery,
  exited,
  freePort,
  runNode,
  serverDist,
  waitForHealth,
  type RunningProcess,
} from './support/processes';
import { demo, signIn } from './support/session';

/**
 * The admin gate (ADMIN_MFA=required, the default outside the tests): an admin without a second factor is told what to
 * do — by the start log, and by the page they land on after signing in — instead of meeting an empty dashboard and
 * admin pages that refuse them. The shared browser-test stack runs with the gate off, so this file starts `npm
 * start`'s process of its own with it on, on a database of its own.
 */
test.describe.configure({ mode: 'serial' });

interface GatedServer {
  url: string;
  app: RunningProcess;
  stop(): Promise<void>;
}
let server: GatedServer;

async function startGated(): Promise<GatedServer> {
  const databaseUrl = process.env.DATABASE_URL!;
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'seatlink-gate-'));
  const name = `seatlink_gate_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  await adminQuery(databaseUrl, `create database ${name}`);
  const url = new URL(databaseUrl);
  url.pathname = `/${name}`;
  const { REDIS_URL: _redis, ...env } = process.env;
  const app = runNode(
    path.join(serverDist, 'main.js'),
    {
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: url.toString(),
      DASHBOARD_URL: `http://localhost:${port}`,
      ADMIN_MFA: 'required',
      LOG_LEVEL: 'log',
      LOG_FORMAT: 'text',
      SEED_DEMO_WALLETS: 'false',
      THROTTLE_LOGIN_IP: '1000',
      THROTTLE_LOGIN_ACCOUNT_IP: '1000',
      WALLET_SIM_CONTROL_KEY: randomBytes(24).toString('base64url'),
    },
    'gated',
  );
  await waitForHealth(`http://127.0.0.1:${port}`, app.child);
  await expect.poll(() => app.output(), { timeout: 30_000 }).toContain('Seatlink is running');
  return {
    url: `http://localhost:${port}`,
    app,
    async stop() {
      app.child.kill('SIGTERM');
      await exited(app.child);
      await adminQuery(databaseUrl, `drop database if exists ${name} with (force)`);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A page of the gated server's. */
async function gatedPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ baseURL: server.url });
  return context.newPage();
}

test.beforeAll(async () => {
  test.skip(!process.env.DATABASE_URL, 'needs PostgreSQL (DATABASE_URL) for a server of its own');
  server = await startGated();
});

test.afterAll(async () => {
  await server?.stop();
});

test('the start log says the demo admin must set up a second factor on Settings before the admin pages work', () => {
  expect(server.app.output()).toContain(
    'Admin pages: ADMIN_MFA=required: admin@seatlink.test must set up a second factor (an authenticator app or a ' +
      `passkey) on Settings, ${server.url}/dashboard/settings#two-factor, before the admin pages work`,
  );
});

test('an admin without a second factor lands on a dashboard that says what to do, with the way to set it up', async ({
  browser,
}) => {
  const page = await gatedPage(browser);
  await signIn(page, demo.admin);
  const notice = page.getByRole('region', { name: 'Set up two-factor authentication to use the admin pages' });
  await expect(notice).toBeVisible();
  await expect(notice).toContainText(
    'Seatlink asks admins for a second factor: add an authenticator app (or a passkey)',
  );
  await expectNoA11yViolations(page, 'dashboard of an admin without a second factor');
  await page.screenshot({ path: test.info().outputPath('admin-mfa-notice.png') });

  // The admin pages say the same, in their place.
  await page.goto('/admin/users');
  await expect(page.getByTestId('admin-mfa-required')).toBeVisible();
  await expect(page.getByTestId('users-table')).toHaveCount(0);

  // The link leads to Settings' authenticator setup.
  await page.getByRole('link', { name: 'Set up an authenticator app' }).click();
  await expect(page).toHaveURL(/\/dashboard\/settings#two-factor$/);
  const section = page.getByRole('region', { name: 'Two-factor authentication' });
  await expect(section).toBeInViewport();

  // Set up: the notice is gone and the admin pages open.
  await section.getByRole('button', { name: 'Set up an authenticator app' }).click();
  const secret = ((await section.getByTestId('totp-secret').textContent()) ?? '').replace(/\s/g, '');
  await section.getByLabel('Code from the app').fill(await generate({ secret }));
  await section.getByRole('button', { name: 'Turn on' }).click();
  await section.getByRole('button', { name: 'I have saved them' }).click();
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: 'Tickets Overview' })).toBeVisible();
  await expect(page.getByTestId('admin-mfa-required')).toHaveCount(0);
  await page.goto('/admin/users');
  await expect(page.getByTestId('users-table')).toBeVisible();
  await page.context().close();
});

test('a user who is no admin is told nothing, and their dashboard does not ask', async ({ browser }) => {
  const page = await gatedPage(browser);
  const asked: string[] = [];
  page.on('request', (req) => {
    if (new URL(req.url()).pathname === '/v1/me/mfa') asked.push(req.url());
  });
  await signIn(page, demo.user);
  await expect(page.getByTestId('admin-mfa-required')).toHaveCount(0);
  expect(asked).toEqual([]);
  await page.context().close();
});
