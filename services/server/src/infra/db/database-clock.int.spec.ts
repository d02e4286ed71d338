import path from 'node:path';
import type { DistributeResponse, Ticket, User } from '@seatlink/contracts';
import type { WalletSimApp } from '@seatlink/wallet-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiProcess, startApiProcess } from '../../testing/api-process.js';
import { ApiClient, startTestStack, type TestStack } from '../../testing/test-app.js';
import { createVerifiedUser } from '../../testing/users.js';
import { linkWalletWith, passes, simControl, startSim } from '../../testing/wallet-fixture.js';
import { hashToken } from '../../modules/identity/sessions.service.js';
import { DATABASE } from './database.module.js';
import type { Database } from './database.js';

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
const SKEWED_CLOCK = path.resolve(import.meta.dirname, '../../testing/skewed-clock.mjs');

/**
 * Time that decides money or access is the database's: an API process whose own clock is a day behind judges a link's
 * expiry and a session's end as every other process does, and says its clock is off.
 */
describe('an API process whose clock is a day behind', () => {
  let sim: WalletSimApp;
  let stack: TestStack;
  let database: Database;
  let skewed: ApiProcess;
  let client: ApiClient;
  let userId: string;
  let tickets: Ticket[];
  let next = 0;

  const balance = async () => ((await client.request('GET', '/v1/me')).body as unknown as User).balance;
  const distribute = (expiry: number) =>
    client.request('POST', '/v1/tickets/distribute', {
      ticket_ids: [tickets[next++]!.id],
      expiry_date: new Date(expiry).toISOString(),
    });

  beforeAll(async () => {
    let url: string;
    ({ sim, url } = await startSim());
    stack = await startTestStack({
      env: { WALLET_PROVIDER_URL: url, WALLET_SYNC_FOLLOW_UPS_MS: '', WALLET_SYNC_EVERY_MS: '600000' },
    });
    database = stack.app.get<Database>(DATABASE);
    const admin = new ApiClient(stack.baseUrl);
    await admin.login('admin@seatlink.test', 'Admin123!');
    const made = await createVerifiedUser(stack.app);
    userId = made.id;
    await admin.request('PUT', `/v1/admin/users/${userId}/credits`, { credits: 100, reason: 'Test credit' });
    const owner = new ApiClient(stack.baseUrl);
    await owner.login(made.email, made.password);
    ({ tickets } = await linkWalletWith(owner, simControl(url), 'skewed@wallet.test', passes('skewed', 6)));
    skewed = await startApiProcess(stack.config, {
      NODE_OPTIONS: `--import ${SKEWED_CLOCK}`,
      SKEWED_CLOCK_MS: String(-DAY_MS),
    });
    client = new ApiClient(skewed.baseUrl);
    expect((await client.login(made.email, made.password)).status).toBe(200);
  }, 120_000);
  afterAll(async () => {
    await skewed?.stop();
    await stack?.close();
    await sim?.close();
  });

  it('refuses an expiry that has passed, or comes within the hour, and charges nothing', async () => {
    const before = await balance();
    for (const expiry of [Date.now() - 30 * MINUTE_MS, Date.now() + 30 * MINUTE_MS]) {
      const refused = await distribute(expiry);
      expect(refused.status).toBe(400);
      expect(refused.body.message).toBe('expiry_date: Link expiry must be at least one hour from now');
    }
    expect(await balance()).toBe(before);
    // Two hours ahead by the database's clock (a day and two hours by the process's own) is a link, for its cost.
    const made = await distribute(Date.now() + 2 * 3_600_000);
    expect(made.status).toBe(200);
    const link = (made.body as unknown as DistributeResponse).distributions[0]!;
    expect(await balance()).toBe(before - 5);
    const state = await fetch(`${skewed.baseUrl}/v1/links/${link.link.split('/l/')[1]}`);
    expect(((await state.json()) as { state: string }).state).toBe('active');
    // An edit that moves it into the past is refused too, by the same clock.
    const edit = await client.request('PATCH', `/v1/distributions/${link.distribution_id}`, {
      expiry_date: new Date(Date.now() - 30 * MINUTE_MS).toISOString(),
    });
    expect(edit.status).toBe(400);
    expect(edit.body.message).toBe('expiry_date: Link expiry must be at least one hour from now');
  });

  it('writes the times of what happens by the database’s clock', async () => {
    const [row] = await database.query<{ off_ms: number }>(
      `select abs(extract(epoch from (now() - (data->>'at')::timestamptz)) * 1000)::float8 as off_ms
       from events where type = 'TicketDistributed' and data->>'userId' = $1 order by global_position desc limit 1`,
      [userId],
    );
    expect(row!.off_ms).toBeLessThan(MINUTE_MS);
  });

  it('ends a session whose time is up, as every other process does', async () => {
    expect((await client.request('GET', '/v1/me')).status).toBe(200);
    // Its end an hour ago by the database's clock: 23 hours ahead still by the process's own.
    await database.query(`update sessions set expires_at = now() - interval '1 hour' where token_hash = $1`, [
      hashToken(client.sessionCookie.split('=')[1]!),
    ]);
    expect((await client.request('GET', '/v1/me')).status).toBe(401);
  });

  it('says in its log how far its clock is off', () => {
    expect(skewed.output()).toMatch(/this process's clock is 86[34]\d\d s behind the database's/);
  });
});
