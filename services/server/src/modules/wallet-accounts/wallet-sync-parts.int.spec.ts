import type { Account, Ticket } from '@seatlink/contracts';
import type { WalletSimApp } from '@seatlink/wallet-sim';
import { CommandBus } from '@nestjs/cqrs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE } from '../../infra/db/database.module.js';
import type { Database } from '../../infra/db/database.js';
import { ApiClient, startTestStack, subscriptionsCaughtUp, type TestStack } from '../../testing/test-app.js';
import { testBackends } from '../../testing/test-database.js';
import { type ChangesAnswer, ticketsClient } from '../../testing/tickets-client.js';
import { passes, startSim, WALLET_PASSWORD } from '../../testing/wallet-fixture.js';
import { SYNC_EVENTS_PER_APPEND, SyncWalletAccountJob } from './sync-wallet-account.job.js';
import { WalletAccountCommandMessage } from './wallet-account.command.js';
import { walletAccountStream } from './wallet-account.events.js';
import { takeLease } from './wallet-sync-state.js';

// A big sync recorded in parts, stopped half-way and completed; read by changes while it runs. On PostgreSQL and on
// the embedded server (npm start's default).
describe.each(testBackends())('a big wallet sync in parts (%s)', (_backend, embedded) => {
  let sim: WalletSimApp;
  let stack: TestStack;
  let database: Database;
  let user: ApiClient;

  const link = async (email: string, count: number) => {
    sim.walletSim.createWallet({ email, password: WALLET_PASSWORD, first_name: 'Big', last_name: 'Wallet' });
    for (const pass of passes(email.split('@')[0]!, count)) sim.walletSim.addPass(email, pass);
    const res = await user.request('POST', '/v1/accounts', { email, password: WALLET_PASSWORD });
    expect(res.status).toBeLessThan(300);
    return (res.body as unknown as Account).id;
  };
  const heldBy = async (accountId: string) =>
    (
      await database.query<{ n: number }>('select count(*)::int as n from tickets where account_id = $1', [accountId])
    )[0]!.n;
  /** Per ticket of the account's stream, how often it was discovered; and in how many transactions. */
  const discoveries = async (accountId: string) =>
    database.query<{ tickets: number; events: number; appends: number }>(
      `select count(distinct data->>'ticketId')::int as tickets, count(*)::int as events,
              count(distinct transaction_id)::int as appends
       from events where stream_id = $1 and type = 'TicketDiscovered'`,
      [walletAccountStream(accountId)],
    );

  beforeAll(async () => {
    let url: string;
    ({ sim, url } = await startSim());
    stack = await startTestStack({
      embedded,
      env: { WALLET_PROVIDER_URL: url, WALLET_SYNC_FOLLOW_UPS_MS: '', WALLET_SYNC_EVERY_MS: '600000' },
    });
    database = stack.app.get<Database>(DATABASE);
    user = new ApiClient(stack.baseUrl);
    await user.login('user@seatlink.test', 'User1234!');
  }, 120_000);
  afterAll(async () => {
    await stack?.close();
    await sim?.close();
  });

  it('completes a sync stopped between its parts with the next one, nothing recorded twice', async () => {
    const accountId = await link('halfway@wallet.test', 0);
    // The sync that linking starts must be over (its lease given back), or the runs below would find it taken.
    await expect
      .poll(
        async () =>
          (
            await database.query<{ done: boolean }>(
              `select running_until is null and last_synced_at is not null as done
               from wallet_sync_state where account_id = $1`,
              [accountId],
            )
          )[0]?.done ?? false,
        { timeout: 30_000 },
      )
      .toBe(true);
    await subscriptionsCaughtUp(stack.app);
    const total = 2 * SYNC_EVENTS_PER_APPEND + 100;
    for (const pass of passes('halfway', total)) sim.walletSim.addPass('halfway@wallet.test', pass);

    // The process "dies" as it sends the third part: two parts are recorded.
    const bus = stack.app.get(CommandBus);
    const execute = bus.execute.bind(bus);
    let parts = 0;
    bus.execute = (command: unknown) => {
      if (command instanceof WalletAccountCommandMessage && command.command.type === 'RecordSync' && ++parts === 3) {
        return Promise.reject(new Error('the process stopped'));
      }
      return execute(command as never);
    };
    const job = stack.app.get(SyncWalletAccountJob);
    try {
      await expect(job.run({ accountId, reason: 'test' })).rejects.toThrow('the process stopped');
    } finally {
      bus.execute = execute;
    }
    await subscriptionsCaughtUp(stack.app);
    expect(await discoveries(accountId)).toEqual([{ tickets: 500, events: 500, appends: 2 }]);
    expect(await heldBy(accountId)).toBe(500);

    await job.run({ accountId, reason: 'test' });
    await subscriptionsCaughtUp(stack.app);
    expect(await discoveries(accountId)).toEqual([{ tickets: total, events: total, appends: 3 }]);
    expect(await heldBy(accountId)).toBe(total);
    const account = ((await user.request('GET', '/v1/accounts')).body.accounts as Account[]).find(
      (a) => a.id === accountId,
    );
    expect(account).toMatchObject({ ticket_count: total, sync_error: null });
  });

  it('a sync that outlived its lease records no more parts once another took the account over, and leaves it the lease', async () => {
    const accountId = await link('outlived@wallet.test', 0);
    const lease = async () =>
      (
        await database.query<{ running_until: string | null; failed_attempts: number }>(
          'select running_until::text, failed_attempts from wallet_sync_state where account_id = $1',
          [accountId],
        )
      )[0];
    await expect.poll(async () => (await lease())?.running_until ?? null, { timeout: 30_000 }).toBeNull();
    await subscriptionsCaughtUp(stack.app);
    const total = 2 * SYNC_EVENTS_PER_APPEND + 100;
    for (const pass of passes('outlived', total)) sim.walletSim.addPass('outlived@wallet.test', pass);

    // As its second part goes out, its lease runs out and another sync takes the account.
    const bus = stack.app.get(CommandBus);
    const execute = bus.execute.bind(bus);
    let parts = 0;
    let other: Awaited<ReturnType<typeof takeLease>> = null;
    bus.execute = async (command: unknown) => {
      if (command instanceof WalletAccountCommandMessage && command.command.type === 'RecordSync' && ++parts === 2) {
        await database.query(
          `update wallet_sync_state set running_until = now() - interval '1 second'
                                where account_id = $1`,
          [accountId],
        );
        other = await takeLease(database, accountId);
      }
      return execute(command as never);
    };
    try {
      await stack.app.get(SyncWalletAccountJob).run({ accountId, reason: 'test' });
    } finally {
      bus.execute = execute;
    }
    expect(other).not.toBeNull();
    await subscriptionsCaughtUp(stack.app);
    // The part under way went through; the third was never sent.
    expect(await discoveries(accountId)).toEqual([{ tickets: 500, events: 500, appends: 2 }]);
    // The other sync still holds the account (not given back by the first), and no failure was counted.
    expect(await lease()).toEqual({ running_until: other!.lease, failed_attempts: 0 });
    expect(await stack.app.get(SyncWalletAccountJob).run({ accountId, reason: 'test' })).toBeUndefined();
    expect(await discoveries(accountId)).toEqual([{ tickets: 500, events: 500, appends: 2 }]);
  });

  it('answers bursts of concurrent since calls while a sync runs; each reader ends with the whole list', async () => {
    const readers = Array.from({ length: 4 }, () => ticketsClient(user));
    const pictures = await Promise.all(
      readers.map(async (reader) => {
        const first = await reader.page(2000);
        expect(first.next_cursor).toBeNull();
        return { reader, version: first.version, tickets: new Map(first.tickets.map((t) => [t.id, t])) };
      }),
    );
    const apply = (picture: (typeof pictures)[number], answer: ChangesAnswer) => {
      if (answer.full) picture.tickets.clear();
      for (const id of answer.removed) picture.tickets.delete(id);
      for (const t of answer.tickets) picture.tickets.set(t.id, t);
      picture.version = answer.version;
    };
    const count = 1200;
    // The sync's second part waits for the first burst, so bursts always meet a sync half-way, however fast it runs.
    const bus = stack.app.get(CommandBus);
    const execute = bus.execute.bind(bus);
    let releaseSecondPart!: () => void;
    const firstBurstDone = new Promise<void>((resolve) => (releaseSecondPart = resolve));
    let parts = 0;
    bus.execute = async (command: unknown) => {
      if (command instanceof WalletAccountCommandMessage && command.command.type === 'RecordSync' && ++parts === 2) {
        await firstBurstDone;
      }
      return execute(command as never);
    };
    const accountId = await link('burst@wallet.test', count);
    let burst = 0;
    let heldAtFirstBurst = -1;
    try {
      do {
        // A burst: every reader asks since its version, ten times at once; each applies the answers in its own order.
        burst += 1;
        await Promise.all(
          pictures.map(async (picture) => {
            const answers = await Promise.all(Array.from({ length: 10 }, () => picture.reader.since(picture.version)));
            for (const answer of answers) {
              expect(answer.full).toBe(false);
              expect(BigInt(answer.version) >= BigInt(picture.version)).toBe(true);
            }
            const newest = answers.reduce((a, b) => (BigInt(b.version) > BigInt(a.version) ? b : a));
            apply(picture, newest);
          }),
        );
        if (burst === 1) {
          heldAtFirstBurst = await heldBy(accountId);
          releaseSecondPart();
        }
      } while ((await heldBy(accountId)) < count);
    } finally {
      releaseSecondPart();
      bus.execute = execute;
    }
    expect(heldAtFirstBurst).toBeLessThan(count);
    await subscriptionsCaughtUp(stack.app);
    const whole = (await readers[0]!.all()).sort((a: Ticket, b: Ticket) => a.id.localeCompare(b.id));
    expect(whole.filter((t) => t.account_id === accountId)).toHaveLength(count);
    for (const picture of pictures) {
      apply(picture, await picture.reader.since(picture.version));
      expect([...picture.tickets.values()].sort((a, b) => a.id.localeCompare(b.id))).toEqual(whole);
    }
  }, 120_000);
});
