import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { expect, test } from '@playwright/test';
import { shownBalance } from './support/payments';
import { demo } from './support/session';
import { nginxAvailable, startTopology, type Topology } from './support/topology';

/**
 * Live updates cross API processes through Redis. While Redis hangs (stopped, not answering), a dashboard is told its
 * figures may be out of date, and once Redis answers again it reads them anew: a balance set meanwhile, whose push was
 * lost, shows without a reload.
 */

test.describe.configure({ mode: 'serial', timeout: 180_000 });
test.skip(!process.env.DATABASE_URL, 'needs DATABASE_URL (the topology runs separate processes)');
test.skip(!nginxAvailable() && process.env.CI !== 'true', 'nginx is not installed');

const PAUSED = 'Live updates are paused: what you see may be out of date. It refreshes when they resume.';

let redis: ChildProcess;
let topology: Topology;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return typeof address === 'object' && address ? address.port : 0;
}

test.beforeAll(async () => {
  const port = await freePort();
  redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  await new Promise((r) => setTimeout(r, 300));
  topology = await startTopology({ apis: 1, redisUrl: `redis://127.0.0.1:${port}`, logLevel: 'warn' });
});

test.afterAll(async () => {
  redis?.kill('SIGCONT');
  await topology?.stop();
  redis?.kill('SIGKILL');
});

async function setBalance(credits: number) {
  const api = topology.apis[0]!;
  const signIn = await fetch(`${api.url}/v1/auth`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: demo.admin.email, password: demo.admin.password, token: null }),
  });
  const cookie = signIn.headers
    .getSetCookie()
    .find((c) => c.startsWith('seatlink_session='))!
    .split(';')[0]!;
  const users = (await (await fetch(`${api.url}/v1/admin/users`, { headers: { cookie } })).json()) as {
    users: Array<{ id: string; email: string }>;
  };
  const user = users.users.find((u) => u.email === demo.user.email)!;
  const res = await fetch(`${api.url}/v1/admin/users/${user.id}/credits`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify({ credits, reason: 'Test' }),
  });
  expect([200, 202]).toContain(res.status);
}

test('says when live updates stop, and reads the page again when they resume', async ({ page }) => {
  // The balance changes between sign-in and the socket joining its rooms: the socket's handshake is held until the
  // new balance is stored, so its push goes out before this page listens. The page must still come to show it.
  let releaseSocket!: () => void;
  const socketHeld = new Promise<void>((resolve) => (releaseSocket = resolve));
  await page.routeWebSocket('**/socket.io/**', async (ws) => {
    await socketHeld;
    ws.connectToServer();
  });
  // Long polling, should the WebSocket fail.
  await page.route('**/socket.io/**', async (route) => {
    await socketHeld;
    await route.continue();
  });
  await page.goto(`${topology.baseUrl}/login`);
  await page.getByLabel('Email').fill(demo.user.email);
  await page.getByLabel('Password', { exact: true }).fill(demo.user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await setBalance(40);
  await expect
    .poll(
      async () =>
        ((await (await page.request.get(`${topology.baseUrl}/v1/me`)).json()) as { balance?: number }).balance,
    )
    .toBe(40);
  releaseSocket();
  await expect.poll(() => shownBalance(page), { timeout: 15_000 }).toBe(40);
  await expect(page.getByText(PAUSED)).toHaveCount(0);

  redis.kill('SIGSTOP');
  try {
    await expect(page.getByText(PAUSED)).toBeVisible({ timeout: 15_000 });
    await page.screenshot({ path: test.info().outputPath('live-updates-paused.png'), fullPage: true });
    // Changed meanwhile; the worker's push cannot cross Redis now.
    await setBalance(77);
  } finally {
    redis.kill('SIGCONT');
  }
  await expect(page.getByText(PAUSED)).toHaveCount(0, { timeout: 15_000 });
  await expect.poll(() => shownBalance(page), { timeout: 15_000 }).toBe(77);
});
