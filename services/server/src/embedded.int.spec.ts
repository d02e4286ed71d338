import type { Account, DistributeResponse, DuplicateGroup, PublicLink, Ticket, User } from '@seatlink/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/server';
import { DATABASE } from './infra/db/database.module.js';
import type { Database } from './infra/db/database.js';
import { demoWalletsNotice, seedDemoWallets } from './seed.js';
import { SoftAuthenticator } from './testing/soft-authenticator.js';
import { createVerifiedUser } from './testing/users.js';
import { freePort } from './testing/ports.js';
import { ApiClient, startTestStack, type TestStack } from './testing/test-app.js';

/**
 * The product as `npm start` runs it on a machine with only Node: the embedded PostgreSQL server, the in-process
 * queue, the simulator mounted in the process and the demo wallets linked. Everything else in the suite runs on the
 * PostgreSQL and Redis of the run where they are; this runs without Redis always.
 */
describe('the product on a bare machine: embedded PostgreSQL, the in-process queue and the mounted simulator', () => {
  let stack: TestStack;
  let user: ApiClient;
  let admin: ApiClient;
  const tickets = async () => (await user.request('GET', '/v1/tickets')).body.tickets as Ticket[];

  beforeAll(async () => {
    const port = await freePort();
    stack = await startTestStack({
      embedded: true,
      port,
      env: { PORT: String(port), SEED_DEMO_WALLETS: 'true', WALLET_SYNC_EVERY_MS: '60000' },
    });
    expect(stack.config.mountWalletSim).toBe(true);
    expect(await seedDemoWallets(stack.app)).toEqual(['alex@wallet.test', 'sam@wallet.test']);
    user = new ApiClient(stack.baseUrl);
    admin = new ApiClient(stack.baseUrl);
    await user.login('user@seatlink.test', 'User1234!');
    await admin.login('admin@seatlink.test', 'Admin123!');
  });
  afterAll(async () => stack?.close());

  it('syncs the demo wallets in: tickets, and the pass both wallets hold as a master and a duplicate', async () => {
    await expect.poll(async () => (await tickets()).length, { timeout: 20_000 }).toBeGreaterThan(5);
    // The shared pass is claimed on its own stream by a reaction that appends inside its transaction.
    await expect
      .poll(
        async () =>
          ((await admin.request('GET', '/v1/admin/tickets/duplicates')).body.duplicate_groups as DuplicateGroup[])
            .length,
        { timeout: 20_000 },
      )
      .toBeGreaterThan(0);
    const all = await tickets();
    expect(all.filter((t) => t.is_duplicate)).toHaveLength(1);
    expect(new Set(all.map((t) => t.account_email))).toEqual(new Set(['alex@wallet.test', 'sam@wallet.test']));
    // Logos are served where browsers reach the dashboard (its origin passes the CSP), not where the server calls.
    const logo = all.find((t) => t.logo)!.logo!;
    expect(logo.startsWith(`${stack.config.DASHBOARD_URL}/wallet-sim/logos/`)).toBe(true);
    const image = await fetch(`${stack.baseUrl}${new URL(logo).pathname}`);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    // The start log lists the demo wallets as they are: two linked to the demo user, one free.
    expect(await demoWalletsNotice(stack.app)).toBe(
      'alex@wallet.test / Wallet123! (linked to user@seatlink.test), sam@wallet.test / Wallet123! (linked to ' +
        'user@seatlink.test), jordan@wallet.test / Wallet123! (free to link)',
    );
  });

  it('links and deletes an account, and the address can be linked again', async () => {
    const linked = await user.request('POST', '/v1/accounts', { email: 'jordan@wallet.test', password: 'Wallet123!' });
    expect([201, 202]).toContain(linked.status);
    const account = linked.body as unknown as Account;
    await expect
      .poll(async () => (await tickets()).filter((t) => t.account_id === account.id).length, { timeout: 20_000 })
      .toBeGreaterThan(0);
    expect(await demoWalletsNotice(stack.app)).toContain(
      'jordan@wallet.test / Wallet123! (linked to user@seatlink.test)',
    );
    expect((await user.request('DELETE', `/v1/accounts/${account.id}`)).status).toBe(200);
    await expect
      .poll(async () => (await tickets()).filter((t) => t.account_id === account.id).length, { timeout: 20_000 })
      .toBe(0);
    // The link claim is released by the schedule reaction (another command appended in its transaction).
    await expect
      .poll(
        async () =>
          (await user.request('POST', '/v1/accounts', { email: 'jordan@wallet.test', password: 'Wallet123!' })).status,
        { timeout: 20_000 },
      )
      .toBeLessThan(300);
  });

  it('distributes a ticket and counts its link’s claims, a retried key once', async () => {
    const { id: userId } = (await user.request('GET', '/v1/me')).body as unknown as User;
    expect(
      (await admin.request('PUT', `/v1/admin/users/${userId}/credits`, { credits: 100, reason: 'Test' })).status,
    ).toBe(200);
    const ticket = (await tickets()).find((t) => !t.is_duplicate && !t.distribution)!;
    const made = await user.request('POST', '/v1/tickets/distribute', { ticket_ids: [ticket.id], max_clicks: 2 });
    expect(made.status).toBe(200);
    const code = (made.body as unknown as DistributeResponse).distributions[0]!.link.split('/l/')[1]!;
    const claim = (key: string) =>
      fetch(`${stack.baseUrl}/v1/links/${code}/claim`, {
        method: 'POST',
        headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0', 'idempotency-key': key },
      });
    const statuses = [];
    for (const key of ['one', 'one', 'two', 'three', 'two']) statuses.push((await claim(key)).status);
    expect(statuses).toEqual([200, 200, 200, 410, 200]);
    const view = await fetch(`${stack.baseUrl}/v1/links/${code}`);
    expect(((await view.json()) as PublicLink).state).toBe('limit_reached');
  });

  it('mails security changes (a passkey, a new device)', async () => {
    const created = await createVerifiedUser(stack.app);
    const client = new ApiClient(stack.baseUrl);
    expect((await client.login(created.email, created.password)).status).toBe(200);
    // A sign-in from another device: SignInFromNewDevice, whose reaction mails the owner.
    const phone = new ApiClient(stack.baseUrl);
    const signedIn = await phone.request(
      'POST',
      '/v1/auth',
      { email: created.email, password: created.password },
      {
        headers: { 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) Mobile/15E148 Safari/604.1' },
      },
    );
    expect(signedIn.status).toBe(200);
    const authenticator = new SoftAuthenticator(stack.config.DASHBOARD_URL.replace(/\/$/, ''));
    const options = await client.request('POST', '/v1/me/passkeys/options');
    const added = await client.request('POST', '/v1/me/passkeys', {
      name: 'Laptop',
      response: authenticator.create(options.body as unknown as PublicKeyCredentialCreationOptionsJSON),
    });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    const database = stack.app.get<Database>(DATABASE);
    await expect
      .poll(
        async () =>
          (
            await database.query<{ subject: string }>(
              `select subject from mail_outbox where "to" = $1 order by subject`,
              [created.email],
            )
          ).map((m) => m.subject),
        { timeout: 20_000 },
      )
      .toEqual(['A security change on your Seatlink account', 'New sign-in to your Seatlink account']);
    // And the database still answers requests.
    const me = await client.request('GET', '/v1/me');
    expect(me.status).toBe(200);
  });

  it('answers health, sign-in and a public form at once', async () => {
    const health = await fetch(`${stack.baseUrl}/health`, { signal: AbortSignal.timeout(5_000) });
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    const joined = await new ApiClient(stack.baseUrl).request('POST', '/v1/waitlist', {
      email: 'someone@example.com',
      first_name: 'Some',
      last_name: 'One',
    });
    expect(joined.status).toBe(200);
  });
});
