import { expect, type Page, test } from '@playwright/test';
import { demo } from './support/session';
import { metric, nginxAvailable, signInAt, startTopology, type ApiProcess, type Topology } from './support/topology';

/**
 * Several processes, one product: two API processes and two workers behind nginx (the compose site configuration),
 * on one PostgreSQL database and Redis. The dashboard goes through nginx, as users do; the admin's changes are made
 * straight at one API process or the other, to choose which process makes them.
 */

test.describe.configure({ mode: 'serial', timeout: 180_000 });

const needed = Boolean(process.env.DATABASE_URL && process.env.REDIS_URL);
test.skip(!needed, 'the scale-out topology needs DATABASE_URL and REDIS_URL');
test.skip(!nginxAvailable() && process.env.CI !== 'true', 'nginx is not installed');

let topology: Topology;
let admin: { cookie: string; via: ApiProcess } | null = null;
let userId: string;

/** Sets the user's credits through this API process (the admin signs in there once). */
async function setCredits(api: ApiProcess, credits: number) {
  if (admin?.via !== api)
    admin = { cookie: (await signInAt(api, demo.admin.email, demo.admin.password)).cookie, via: api };
  const res = await fetch(`${api.url}/v1/admin/users/${userId}/credits`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', cookie: admin.cookie },
    body: JSON.stringify({ credits, reason: 'Test' }),
  });
  expect([200, 202]).toContain(res.status);
}

/** The API process holding the page's socket (the one whose metrics count a connected dashboard). */
async function socketHolder(): Promise<ApiProcess> {
  let holder: ApiProcess | undefined;
  await expect
    .poll(
      async () => {
        const counts = await Promise.all(
          topology.apis.map(async (api) =>
            api.child.exitCode === null && api.child.signalCode === null
              ? metric(api, 'seatlink_sockets_connected')
              : 0,
          ),
        );
        holder = topology.apis[counts.findIndex((n) => n > 0)];
        return counts.filter((n) => n > 0).length;
      },
      { timeout: 20_000 },
    )
    .toBe(1);
  return holder!;
}

const credits = (page: Page) => page.getByTestId('available-credits');

test.beforeAll(async () => {
  topology = await startTopology();
  userId = (await signInAt(topology.apis[0]!, demo.user.email, demo.user.password)).id;
});
test.afterAll(async () => topology?.stop());

async function openDashboard(page: Page) {
  await page.goto(`${topology.baseUrl}/login`);
  await page.getByLabel('Email').fill(demo.user.email);
  await page.getByLabel('Password', { exact: true }).fill(demo.user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(credits(page)).toBeVisible();
}

test('a change made through one API process reaches a dashboard connected through the other', async ({ page }) => {
  await openDashboard(page);
  const holder = await socketHolder();
  const other = topology.apis.find((api) => api !== holder)!;
  await setCredits(other, 4321);
  await expect(credits(page)).toHaveText('4,321');
});

test('the standby worker takes over the subscriptions when the active one is killed, and nothing is lost', async ({
  page,
}) => {
  await openDashboard(page);
  const active = topology.workers.find((w) => w.output().includes('took the subscriptions lock'))!;
  const standby = topology.workers.find((w) => w !== active && w.child.exitCode === null)!;
  expect(active).toBeDefined();
  expect(standby.output()).not.toContain('took the subscriptions lock');
  const killedAt = Date.now();
  await active.kill();
  // Changes made while no worker runs the subscriptions are kept in the events and shown once the standby runs them.
  for (const value of [1001, 1002, 1003]) await setCredits(topology.apis[0]!, value);
  await expect(credits(page)).toHaveText('1,003', { timeout: 30_000 });
  const visibleAfterMs = Date.now() - killedAt;
  expect(standby.output()).toContain('took the subscriptions lock');
  console.log(`failover: the standby's first change visible on the dashboard ${visibleAfterMs} ms after the kill`);
  // A new standby for the tests after this one.
  await topology.startWorker('worker-3');
});

test('killing the API process a dashboard is connected to moves it to the other through nginx, missing nothing', async ({
  page,
}) => {
  await openDashboard(page);
  const holder = await socketHolder();
  const survivor = topology.apis.find((api) => api !== holder)!;
  await holder.kill();
  // Made while the dashboard has no connection: it is read again when the socket is back (on the other process).
  await setCredits(survivor, 2002);
  await expect(credits(page)).toHaveText('2,002', { timeout: 30_000 });
  expect(await socketHolder()).toBe(survivor);
  await setCredits(survivor, 2003);
  await expect(credits(page)).toHaveText('2,003');
  await topology.restartApi(holder);
});

test('wallet syncs spread over both workers', async () => {
  const api = topology.apis[0]!;
  const { cookie } = await signInAt(api, demo.user.email, demo.user.password);
  const running = topology.workers.filter((w) => w.child.exitCode === null && w.child.signalCode === null);
  expect(running).toHaveLength(2);
  const before = await Promise.all(running.map((w) => metric(w, 'seatlink_job_runs_total', { queue: 'wallet-sync' })));
  for (let i = 0; i < 8; i++) {
    const email = `spread-${i}-${Date.now().toString(36)}@wallet.test`;
    const made = await fetch(`${topology.simUrl}/control/wallets`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-control-key': topology.simControlKey },
      body: JSON.stringify({ email, password: 'Wallet123!', first_name: 'Spread', last_name: String(i) }),
    });
    expect(made.status).toBe(201);
    const linked = await fetch(`${api.url}/v1/accounts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify({ email, password: 'Wallet123!' }),
    });
    expect([200, 201, 202]).toContain(linked.status);
  }
  // Each link syncs at once and three times after (1, 2 and 3 s): 32 syncs, some on each worker.
  const ranSince = async () =>
    (await Promise.all(running.map((w) => metric(w, 'seatlink_job_runs_total', { queue: 'wallet-sync' })))).map(
      (n, i) => n - before[i]!,
    );
  await expect
    .poll(async () => (await ranSince()).reduce((a, b) => a + b, 0), { timeout: 60_000 })
    .toBeGreaterThanOrEqual(32);
  const per = await ranSince();
  console.log(`wallet syncs per worker: ${per.join(' and ')}`);
  expect(per.every((n) => n > 0)).toBe(true);
});
