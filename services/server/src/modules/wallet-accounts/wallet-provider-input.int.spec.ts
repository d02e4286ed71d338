import { randomUUID } from 'node:crypto';
import { type Account, QueueName, type Ticket } from '@seatlink/contracts';
import type { WalletSimApp } from '@seatlink/wallet-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE } from '../../infra/db/database.module.js';
import type { Database } from '../../infra/db/database.js';
import { JOB_QUEUE, type JobQueue } from '../../infra/queue/queue.port.js';
import { SubscriptionOperations } from '../../infra/subscriptions/subscription-operations.js';
import { ApiClient, startTestStack, subscriptionsCaughtUp, type TestStack } from '../../testing/test-app.js';
import { passes, simControl, startSim, WALLET_PASSWORD } from '../../testing/wallet-fixture.js';
import { periodicSyncKey, SyncWalletAccountJob } from './sync-wallet-account.job.js';
import { SYNC_FAILURE_MESSAGES, SYNC_GIVE_UP_AFTER } from './wallet-sync-state.js';

/** Characters that must never reach a stored event or a page. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE = /[\u0000-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/;

/**
 * A wallet provider (the simulator, over real HTTP) that sends what it should not: NUL, lone surrogates, a
 * right-to-left override, huge strings, deep nesting, far dates and wrong types. The usable passes arrive with their
 * text cleaned, the others are left out and reported, a sync that gives up shows on its account until one goes
 * through, and a rebuild of the read models gives the same rows.
 */
describe('a wallet provider that sends what it should not', () => {
  let sim: WalletSimApp;
  let control: ReturnType<typeof simControl>;
  let stack: TestStack;
  let user: ApiClient;
  let database: Database;

  beforeAll(async () => {
    let url: string;
    ({ sim, url } = await startSim());
    control = simControl(url);
    stack = await startTestStack({
      env: { WALLET_PROVIDER_URL: url, WALLET_SYNC_FOLLOW_UPS_MS: '', WALLET_SYNC_EVERY_MS: '3600000' },
    });
    database = stack.app.get<Database>(DATABASE);
    user = new ApiClient(stack.baseUrl);
    await user.login('user@seatlink.test', 'User1234!');
  });
  afterAll(async () => {
    await stack?.close();
    await sim?.close();
  });

  const unique = (label: string) => `${label}-${randomUUID().slice(0, 8)}@wallet.test`;
  const accountOf = async (id: string) =>
    ((await user.request('GET', '/v1/accounts')).body.accounts as Account[]).find((a) => a.id === id);
  const ticketsOf = async (accountId: string) =>
    ((await user.request('GET', '/v1/tickets')).body.tickets as Ticket[]).filter((t) => t.account_id === accountId);
  const addRaw = (email: string, id: string, pass: unknown) =>
    control('POST', `/wallets/${encodeURIComponent(email)}/raw-passes`, { id, pass });
  /** A pass as the provider API answers it, to be sent raw with changes. */
  const apiPass = (id: string, changes: Record<string, unknown> = {}) => ({
    id,
    barcode: `BC-${id}`,
    event: { title: `Match ${id}`, subtitle: 'Premier Division', logo_url: null },
    venue: { name: 'Quayside Stadium' },
    seat: { section: 'North Stand', row: 'K', seat: '12' },
    next_game: { title: 'Harbourside vs Rovers', date: '2026-12-05T15:00:00.000Z' },
    save_url: null,
    ...changes,
  });
  const link = async (email: string): Promise<Account> => {
    const res = await user.request('POST', '/v1/accounts', { email, password: WALLET_PASSWORD });
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
    return res.body as unknown as Account;
  };
  /** The account's sync job, run here as the queue runs it (the scheduled runs are stopped, so only these count). */
  const runSync = async (accountId: string) => {
    await stack.app.get<JobQueue>(JOB_QUEUE).removeRepeatable(QueueName.WalletSync, periodicSyncKey(accountId));
    const job = stack.app.get(SyncWalletAccountJob);
    return job.run({ accountId, reason: 'test' });
  };
  const idle = async (accountId: string) => {
    await expect.poll(async () => (await accountOf(accountId))?.syncing, { timeout: 15_000 }).toBe(false);
  };

  it('a pass with NUL, a lone surrogate or a bidi override no longer stops the sync: every pass arrives, cleaned', async () => {
    const email = unique('text');
    await control('POST', '/wallets', {
      email,
      password: WALLET_PASSWORD,
      first_name: 'Tex\u202Et',
      last_name: 'S\u0000ender',
    });
    const tag = email.split('@')[0]!;
    const add = (id: string, event: Record<string, unknown>, venue = 'Quayside Stadium') =>
      control('POST', `/wallets/${encodeURIComponent(email)}/passes`, {
        id: `${tag}-${id}`,
        event,
        venue: { name: venue },
        visible_after_ms: 0,
      });
    await add('good', { title: 'League Match', subtitle: 'Round 3' });
    await add('nul', { title: 'Cup\u0000 Final', subtitle: 'a\u0007b' });
    await add('lone', { title: 'Derby \uD800 day', subtitle: 'Round\uDC00 4' });
    await add('rtl', { title: 'Away Day', subtitle: 'Round 5' }, '\u202EQuayside\u202C Stadium\u2066');

    const account = await link(email);
    await expect.poll(async () => (await ticketsOf(account.id)).length, { timeout: 20_000 }).toBe(4);
    const tickets = await ticketsOf(account.id);
    const titled = (title: string) => tickets.find((t) => t.title === title);
    expect(titled('League Match')).toMatchObject({ subtitle: 'Round 3', venue_name: 'Quayside Stadium' });
    expect(titled('Cup Final')).toMatchObject({ subtitle: 'ab' });
    expect(titled('Derby \uFFFD day')).toMatchObject({ subtitle: 'Round\uFFFD 4' });
    expect(titled('Away Day')).toMatchObject({ venue_name: 'Quayside Stadium' });
    for (const t of tickets) expect(JSON.stringify(t)).not.toMatch(UNSAFE);
    expect(await accountOf(account.id)).toMatchObject({ name: 'Text Sender', in_error_state: false, sync_error: null });
  });

  it('leaves out and reports the passes still unusable once cleaned, syncs the rest, and a rebuild gives the same', async () => {
    const email = unique('odd');
    await control('POST', '/wallets', { email, password: WALLET_PASSWORD, first_name: 'Odd', last_name: 'Sender' });
    const tag = email.split('@')[0]!;
    for (const p of passes(tag, 1)) await control('POST', `/wallets/${encodeURIComponent(email)}/passes`, p);
    let deep: unknown = 'title';
    for (let i = 0; i < 1_000; i++) deep = { deeper: deep };
    // Usable once cleaned and cut to length.
    await addRaw(
      email,
      `${tag}-huge`,
      apiPass(`${tag}-huge`, {
        event: { title: 'T'.repeat(500_000), subtitle: 'S\u0000'.repeat(100_000), logo_url: 'javascript:alert(1)' },
        seat: { section: 'N'.repeat(10_000), row: 'K', seat: '1' },
      }),
    );
    // Unusable: left out and reported.
    await addRaw(email, `${tag}-x-deep`, apiPass(`${tag}-x-deep`, { event: { title: deep } }));
    await addRaw(
      email,
      `${tag}-x-far`,
      apiPass(`${tag}-x-far`, { next_game: { title: 'Far', date: '9999-12-31T00:00:00Z' } }),
    );
    await addRaw(email, `${tag}-x-type`, apiPass(`${tag}-x-type`, { venue: ['Quayside'] }));
    await addRaw(email, `${tag}-x-noid`, apiPass(`${tag}-x-noid`, { id: 42 }));
    await addRaw(
      email,
      `${tag}-x-seat`,
      apiPass(`${tag}-x-seat`, { seat: { section: 'A', row: { n: 1 }, seat: '1' } }),
    );

    const account = await link(email);
    await expect.poll(async () => (await accountOf(account.id))?.skipped_passes, { timeout: 20_000 }).toBe(5);
    await idle(account.id);
    const tickets = await ticketsOf(account.id);
    expect(tickets.map((t) => t.title).sort()).toEqual(['Match 0', 'T'.repeat(200)]);
    const huge = tickets.find((t) => t.title.startsWith('TTTT'))!;
    expect(huge.subtitle).toBe('S'.repeat(300));
    expect(huge.logo).toBeNull();
    expect(huge.seat.section).toBe('N'.repeat(100));
    for (const t of tickets) expect(JSON.stringify(t)).not.toMatch(UNSAFE);
    expect(await accountOf(account.id)).toMatchObject({ skipped_passes: 5, sync_error: null, in_error_state: false });
    const [skipped] = await database.query<{ data: { skipped: { passId: string | null; reason: string }[] } }>(
      `select data from events where stream_id = $1 and type = 'WalletPassesSkipped'`,
      [`wallet-account-${account.id}`],
    );
    expect(skipped!.data.skipped).toEqual([
      { passId: null, reason: 'id: Invalid input: expected string, received number' },
      { passId: `${tag}-x-deep`, reason: 'event.title: Invalid input: expected string, received object' },
      { passId: `${tag}-x-far`, reason: 'next_game.date: not a date between 2000 and 2100' },
      { passId: `${tag}-x-seat`, reason: 'seat.row: Invalid input: expected string, received object' },
      { passId: `${tag}-x-type`, reason: 'venue: Invalid input: expected object, received array' },
    ]);

    // Synced again, the same: nothing new is recorded.
    await runSync(account.id);
    const [counts] = await database.query<{ skipped: number; failed: number }>(
      `select count(*) filter (where type = 'WalletPassesSkipped')::int as skipped,
              count(*) filter (where type = 'WalletAccountSyncFailed')::int as failed
       from events where stream_id = $1`,
      [`wallet-account-${account.id}`],
    );
    expect(counts).toEqual({ skipped: 1, failed: 0 });

    // A rebuild of the read models from the events gives the same rows (but for their versions: the transactions
    // that wrote them).
    await subscriptionsCaughtUp(stack.app);
    const snapshot = async () => ({
      tickets: await database.query(
        `select to_jsonb(t) - 'version' as row from tickets t where account_id = $1 order by id`,
        [account.id],
      ),
      accounts: await database.query(`select to_jsonb(a) - 'version' as row from wallet_accounts a where id = $1`, [
        account.id,
      ]),
    });
    const before = await snapshot();
    expect(before.tickets).toHaveLength(2);
    await stack.app.get(SubscriptionOperations).reset(['tickets', 'wallet-accounts']);
    await subscriptionsCaughtUp(stack.app);
    expect(await snapshot()).toEqual(before);
  });

  it('shows a sync that gave up on its account (after its tries, or at once when not an outage) until one goes through', async () => {
    const email = unique('down');
    await control('POST', '/wallets', { email, password: WALLET_PASSWORD, first_name: 'Down', last_name: 'Time' });
    for (const p of passes(email.split('@')[0]!, 2)) {
      await control('POST', `/wallets/${encodeURIComponent(email)}/passes`, p);
    }
    const account = await link(email);
    await expect.poll(async () => (await ticketsOf(account.id)).length, { timeout: 20_000 }).toBe(2);
    await idle(account.id);

    // The provider answers slowly during the burst, so the sync that holds the lease still holds it when the others
    // start, however loaded the machine (one that ended first would free the lease for a second run).
    await control('PUT', '/config', { errorRate: 1, latencyMs: { min: 1_000, max: 1_000 } });
    try {
      // A burst of syncs of the account: one runs (the lease), and its failure counts once.
      const burst = await Promise.allSettled(Array.from({ length: 8 }, () => runSync(account.id)));
      expect(burst.filter((r) => r.status === 'rejected')).toHaveLength(1);
      await control('PUT', '/config', { latencyMs: { min: 0, max: 0 } });
      for (let i = 2; i < SYNC_GIVE_UP_AFTER; i++) await expect(runSync(account.id)).rejects.toThrow(/unavailable/);
      await subscriptionsCaughtUp(stack.app);
      // An outage is retried quietly: the account shows nothing yet.
      expect((await accountOf(account.id))?.sync_error).toBeNull();
      await expect(runSync(account.id)).rejects.toThrow(/unavailable/);
      await subscriptionsCaughtUp(stack.app);
      expect(await accountOf(account.id)).toMatchObject({
        sync_error: SYNC_FAILURE_MESSAGES.unavailable,
        in_error_state: false,
        ticket_count: 2,
      });
      // Giving up again for the same reason records nothing new.
      await expect(runSync(account.id)).rejects.toThrow(/unavailable/);
    } finally {
      await control('PUT', '/config', { errorRate: 0, latencyMs: { min: 0, max: 0 } });
    }
    const [failed] = await database.query<{ n: number }>(
      `select count(*)::int as n from events where stream_id = $1 and type = 'WalletAccountSyncFailed'`,
      [`wallet-account-${account.id}`],
    );
    expect(failed!.n).toBe(1);

    await runSync(account.id);
    await subscriptionsCaughtUp(stack.app);
    expect(await accountOf(account.id)).toMatchObject({ sync_error: null, in_error_state: false, ticket_count: 2 });
    const [row] = await database.query<{ failed_attempts: number }>(
      `select failed_attempts from wallet_sync_state where account_id = $1`,
      [account.id],
    );
    expect(row!.failed_attempts).toBe(0);

    // A failure that is not an outage (a wallet larger than a sync takes) shows at once, and its tickets stay.
    for (let i = 0; i < 5_001; i++) {
      sim.walletSim.addPass(email, {
        id: `many-${String(i).padStart(5, '0')}`,
        event: { title: `Many ${i}`, subtitle: 'Bulk' },
        venue: { name: 'Quayside Stadium' },
        visible_after_ms: 0,
      });
    }
    await expect(runSync(account.id)).rejects.toThrow(/more than 5000 passes/);
    await subscriptionsCaughtUp(stack.app);
    expect(await accountOf(account.id)).toMatchObject({ sync_error: SYNC_FAILURE_MESSAGES.tooMany, ticket_count: 2 });
  }, 60_000);
});
