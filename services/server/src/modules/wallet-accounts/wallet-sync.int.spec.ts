import { randomUUID } from 'node:crypto';
import type { Account, Ticket } from '@seatlink/contracts';
import type { WalletSimApp } from '@seatlink/wallet-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE } from '../../infra/db/database.module.js';
import type { Database } from '../../infra/db/database.js';
import { ApiClient, startTestStack, startTestWorker, type TestStack } from '../../testing/test-app.js';
import { testEnv } from '../../testing/test-database.js';
import { passes, simControl, startSim, WALLET_PASSWORD } from '../../testing/wallet-fixture.js';

const PASSWORD = WALLET_PASSWORD;

// The same flows on both queues: BullMQ on Redis (as in production) and the in-process one (npm start's).
describe.each([
  ['the in-process queue', false],
  ['BullMQ on Redis', true],
])('syncing wallet accounts on %s', (_label, redis) => {
  let sim: WalletSimApp;
  let simUrl: string;
  let stack: TestStack;
  let user: ApiClient;
  let control: ReturnType<typeof simControl>;

  beforeAll(async () => {
    if (redis && !testEnv.redisUrl) return;
    ({ sim, url: simUrl } = await startSim({ rateLimit: { requestsPerSecond: 0 } }));
    control = simControl(simUrl);
    stack = await startTestStack({
      redis,
      env: { WALLET_PROVIDER_URL: simUrl, WALLET_SYNC_FOLLOW_UPS_MS: '', WALLET_SYNC_EVERY_MS: '60000' },
    });
    user = new ApiClient(stack.baseUrl);
    await user.login('user@seatlink.test', 'User1234!');
  });
  afterAll(async () => {
    await stack?.close();
    await sim?.close();
  });

  const tickets = async () => (await user.request('GET', '/v1/tickets')).body.tickets as Ticket[];
  const link = async (email: string) =>
    (await user.request('POST', '/v1/accounts', { email, password: PASSWORD })).body as unknown as Account;

  it.skipIf(redis && !testEnv.redisUrl)(
    'refuses to link while the wallet service is down (424), writing nothing',
    async () => {
      const email = `down-${randomUUID().slice(0, 8)}@wallet.test`;
      await control('POST', '/wallets', { email, password: PASSWORD, first_name: 'D', last_name: 'Own' });
      await control('PUT', '/config', { errorRate: 1 });
      try {
        const res = await user.request('POST', '/v1/accounts', { email, password: PASSWORD });
        expect(res.status).toBe(424);
        expect(res.body.code).toBe('WALLET_UNAVAILABLE');
        expect(
          ((await user.request('GET', '/v1/accounts')).body.accounts as Account[]).some((a) => a.email === email),
        ).toBe(false);
      } finally {
        await control('PUT', '/config', { errorRate: 0 });
      }
    },
  );

  it.skipIf(redis && !testEnv.redisUrl)(
    'retries a sync that met an outage, and then brings the tickets in',
    async () => {
      const email = `flaky-${randomUUID().slice(0, 8)}@wallet.test`;
      const tag = email.split('@')[0]!;
      await control('POST', '/wallets', { email, password: PASSWORD, first_name: 'F', last_name: 'Laky' });
      for (const p of passes(tag, 3)) await control('POST', `/wallets/${encodeURIComponent(email)}/passes`, p);
      const account = await link(email);
      // The first syncs meet 503s; the job's retries (exponential backoff) get through once it is back.
      await control('PUT', '/config', { errorRate: 1 });
      await new Promise((r) => setTimeout(r, 300));
      await control('PUT', '/config', { errorRate: 0 });
      await expect
        .poll(async () => (await tickets()).filter((t) => t.account_id === account.id).length, { timeout: 30_000 })
        .toBe(3);
    },
    40_000,
  );

  it.skipIf(redis && !testEnv.redisUrl)(
    'deleting an account while it syncs leaves no ticket of it behind',
    async () => {
      const email = `slow-${randomUUID().slice(0, 8)}@wallet.test`;
      const tag = email.split('@')[0]!;
      await control('POST', '/wallets', { email, password: PASSWORD, first_name: 'S', last_name: 'Low' });
      for (const p of passes(tag, 2)) await control('POST', `/wallets/${encodeURIComponent(email)}/passes`, p);
      await control('PUT', '/config', { latencyMs: { min: 600, max: 600 } });
      try {
        const account = await link(email);
        await new Promise((r) => setTimeout(r, 200));
        expect((await user.request('DELETE', `/v1/accounts/${account.id}`)).status).toBe(200);
        await new Promise((r) => setTimeout(r, 1500));
        expect((await tickets()).filter((t) => t.account_id === account.id)).toEqual([]);
      } finally {
        await control('PUT', '/config', { latencyMs: { min: 0, max: 0 } });
      }
    },
  );
});

describe('the pace toward the provider', () => {
  let sim: WalletSimApp;
  let simUrl: string;
  let stack: TestStack;
  let user: ApiClient;
  let control: ReturnType<typeof simControl>;

  beforeAll(async () => {
    // The provider allows 2 calls a second; Seatlink is set to 10: it meets 429s and must honour their Retry-After.
    ({ sim, url: simUrl } = await startSim({ rateLimit: { requestsPerSecond: 2 } }));
    control = simControl(simUrl);
    stack = await startTestStack({
      env: {
        WALLET_PROVIDER_URL: simUrl,
        WALLET_SYNC_FOLLOW_UPS_MS: '',
        WALLET_PROVIDER_RPS: '10',
        WALLET_SYNC_EVERY_MS: '600000',
      },
    });
    user = new ApiClient(stack.baseUrl);
    await user.login('user@seatlink.test', 'User1234!');
  });
  afterAll(async () => {
    await stack?.close();
    await sim?.close();
  });

  it('links 8 accounts at once and syncs them in full through the provider’s 429s', async () => {
    const emails = Array.from({ length: 8 }, (_, i) => `paced${i}-${randomUUID().slice(0, 6)}@wallet.test`);
    for (const [i, email] of emails.entries()) {
      await control('POST', '/wallets', { email, password: PASSWORD, first_name: 'P', last_name: `Aced${i}` });
      for (const p of passes(email.split('@')[0]!, 2))
        await control('POST', `/wallets/${encodeURIComponent(email)}/passes`, p);
    }
    // Eight sign-ins at once, paced at 10 a second, against a provider that takes 2: some are refused with 429, wait
    // for the Retry-After and go through; none of the links fails for it.
    const linked = await Promise.all(
      emails.map((email) => user.request('POST', '/v1/accounts', { email, password: PASSWORD })),
    );
    expect(linked.map((res) => res.status).filter((status) => status >= 300)).toEqual([]);
    const accounts = linked.map((res) => res.body as unknown as Account);
    const ids = new Set(accounts.map((a) => a.id));
    await expect
      .poll(
        async () =>
          ((await user.request('GET', '/v1/tickets')).body.tickets as Ticket[]).filter((t) => ids.has(t.account_id))
            .length,
        { timeout: 30_000 },
      )
      .toBe(16);
    const stats = (await control('GET', '/stats'))!.requests as { rate_limited: number };
    // It did meet the limit (the test is about that), and no account was left in error because of it; a page refused
    // with 429 was asked again, not taken for an empty wallet (which would have made tickets go).
    expect(stats.rate_limited).toBeGreaterThan(0);
    const listed = (await user.request('GET', '/v1/accounts')).body.accounts as Account[];
    expect(listed.filter((a) => ids.has(a.id)).every((a) => !a.in_error_state)).toBe(true);
    const [gone] = await stack.app
      .get<Database>(DATABASE)
      .query<{ n: number }>(`select count(*)::int as n from events where type = 'TicketGone'`);
    expect(gone!.n).toBe(0);
  }, 45_000);
});

describe.skipIf(!testEnv.redisUrl)('a worker killed in the middle of a sync', () => {
  let sim: WalletSimApp;
  let simUrl: string;
  let api: TestStack;
  let user: ApiClient;
  let control: ReturnType<typeof simControl>;

  beforeAll(async () => {
    ({ sim, url: simUrl } = await startSim({ rateLimit: { requestsPerSecond: 0 } }));
    control = simControl(simUrl);
    api = await startTestStack({
      role: 'api',
      env: { WALLET_PROVIDER_URL: simUrl, WALLET_SYNC_FOLLOW_UPS_MS: '', WALLET_SYNC_EVERY_MS: '600000' },
    });
    const seedWorker = await startTestWorker(api.config);
    const { seed } = await import('../../seed.js');
    await seed(seedWorker);
    await seedWorker.close();
    user = new ApiClient(api.baseUrl);
    await user.login('user@seatlink.test', 'User1234!');
  });
  afterAll(async () => {
    await api?.close();
    await sim?.close();
  });

  it('leaves nothing duplicated or lost: the sync runs again on another worker', async () => {
    const email = `killed-${randomUUID().slice(0, 8)}@wallet.test`;
    await control('POST', '/wallets', { email, password: PASSWORD, first_name: 'K', last_name: 'Illed' });
    for (const p of passes(email.split('@')[0]!, 4))
      await control('POST', `/wallets/${encodeURIComponent(email)}/passes`, p);
    await control('PUT', '/config', { latencyMs: { min: 1500, max: 1500 } });
    const first = await startTestWorker(api.config);
    const account = (await user.request('POST', '/v1/accounts', { email, password: PASSWORD }))
      .body as unknown as Account;
    // The worker dies while the sync waits on the slow provider.
    await new Promise((r) => setTimeout(r, 700));
    await first.close();
    await control('PUT', '/config', { latencyMs: { min: 0, max: 0 } });
    const database = api.app.get<Database>(DATABASE);
    // Its lease runs out (a crashed worker gives it up after its lease; here the lease is cleared as it would expire).
    await database.query(
      `update wallet_sync_state set running_until = now() - interval '1 second' where account_id = $1`,
      [account.id],
    );
    const second = await startTestWorker(api.config);
    try {
      await user.request('POST', `/v1/accounts/${account.id}/reauth`, { email, password: PASSWORD });
      await expect
        .poll(
          async () =>
            ((await user.request('GET', '/v1/tickets')).body.tickets as Ticket[]).filter(
              (t) => t.account_id === account.id,
            ).length,
          { timeout: 30_000 },
        )
        .toBe(4);
      const [discovered] = await database.query<{ n: number }>(
        `select count(*)::int as n from events where stream_id = $1 and type = 'TicketDiscovered'`,
        [`wallet-account-${account.id}`],
      );
      expect(discovered!.n).toBe(4);
    } finally {
      await second.close();
    }
  }, 60_000);
});
