import { randomUUID } from 'node:crypto';
import type { INestApplicationContext } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { AuditEntry, DistributeResponse, Ticket, User } from '@seatlink/contracts';
import type { WalletSimApp } from '@seatlink/wallet-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE } from '../../infra/db/database.module.js';
import type { Database } from '../../infra/db/database.js';
import {
  EVENT_STORE,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type StreamAppend,
} from '../../infra/event-store/event-store.port.js';
import { startSplitStack } from '../../testing/split-stack.js';
import { ApiClient, startTestWorker, subscriptionsCaughtUp, type TestStack } from '../../testing/test-app.js';
import { linkWalletWith, passes, type SimControl } from '../../testing/wallet-fixture.js';
import { CreditsCommandMessage } from '../credits/credits.command.js';
import { DistributeTicketsCommand } from './distribute-tickets.command.js';
import { PasswordHasher } from '../identity/index.js';
import { DistributeTicketsFlow } from './distribute-tickets.flow.js';
import { DistributionSettlements } from './distribution-settlements.service.js';
import { SettleDistributionsJob } from './settle-distribution.job.js';

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

/**
 * The real store, with the appends `fails` picks refused: the database went away at that moment. An append to several
 * streams fails when any of its streams is picked.
 */
function failingAppends(
  store: EventStore,
  fails: (stream: string, events: readonly NewEvent[]) => boolean,
): EventStore {
  const append = store.appendToStream.bind(store);
  const appendMany = store.appendToStreams.bind(store);
  const refused = (stream: string) =>
    Promise.reject(new Error(`injected: the database went away appending to ${stream}`));
  return new Proxy(store, {
    get: (target, property, receiver) => {
      if (property === 'appendToStream') {
        return (stream: string, events: readonly NewEvent[], options?: { expectedRevision?: ExpectedRevision }) =>
          fails(stream, events) ? refused(stream) : append(stream, events, options);
      }
      if (property === 'appendToStreams') {
        return (appends: readonly StreamAppend[]) => {
          const failing = appends.find((a) => fails(a.streamId, a.events));
          return failing ? refused(failing.streamId) : appendMany(appends);
        };
      }
      return Reflect.get(target, property, receiver) as unknown;
    },
  });
}

/** Whether a command sent on the bus is this command on a credit stream. */
const isCredits = (command: object, type: string) =>
  command instanceof CreditsCommandMessage && command.command.type === type;

describe('distribution when the worker or the database goes away', () => {
  let sim: WalletSimApp;
  let api: TestStack;
  let worker: INestApplicationContext | null = null;
  let user: ApiClient;
  let admin: ApiClient;
  let userId: string;
  let tickets: Ticket[];

  const balanceOf = async () => ((await user.request('GET', '/v1/me')).body as unknown as User).balance;
  const claim = (code: string) =>
    fetch(`${api.baseUrl}/v1/links/${code}/claim`, { method: 'POST', headers: { 'user-agent': BROWSER } });

  beforeAll(async () => {
    let control: SimControl;
    ({ sim, control, api, worker, admin, user, userId } = await startSplitStack({ READ_MODEL_WAIT_MS: '300' }));
    await admin.request('PUT', `/v1/admin/users/${userId}/credits`, { credits: 100, reason: 'Test' });
    ({ tickets } = await linkWalletWith(user, control, 'outage@wallet.test', passes('outage', 8)));
    await subscriptionsCaughtUp(worker);
  }, 60_000);
  afterAll(async () => {
    await worker?.close();
    await api?.close();
    await sim?.close();
  });

  it('makes links that work at once while no worker runs, and the worker catches up when it is back', async () => {
    await worker!.close();
    worker = null;
    const res = await user.request('POST', '/v1/tickets/distribute', { ticket_ids: [tickets[0]!.id, tickets[1]!.id] });
    // Made and paid for (202: the read models will show it once a worker runs).
    expect(res.status).toBe(202);
    const made = res.body as unknown as DistributeResponse;
    expect(made.pending).toBe(true);
    expect(made.balance).toBe(90);
    const code = made.distributions[0]!.link.split('/l/')[1]!;
    expect((await claim(code)).status).toBe(200);
    const recalled = await user.request('POST', `/v1/distributions/${made.distributions[1]!.distribution_id}/recall`);
    expect(recalled.status).toBe(202);
    expect(recalled.body.pending).toBe(true);

    worker = await startTestWorker(api.config);
    await subscriptionsCaughtUp(worker);
    const shown = (await user.request('GET', '/v1/tickets')).body.tickets as Ticket[];
    expect(shown.find((t) => t.id === tickets[0]!.id)?.distribution?.clicks).toBe(1);
    expect(shown.find((t) => t.id === tickets[1]!.id)?.is_distributed).toBe(false);
    expect(await balanceOf()).toBe(90);
    const log = (await admin.request('GET', `/v1/admin/users/${userId}/audits?kind=links`)).body.audits as AuditEntry[];
    expect(log.filter((a) => a.event_data.status === 'SUCCESS').map((a) => a.event_type)).toEqual([
      'TICKET_RECALLED',
      'LINK_CLAIMED',
      'DISTRIBUTE',
      'DISTRIBUTE',
    ]);
  }, 30_000);

  it('makes a link whose counter was never written claimable, and stops one recalled, once the reaction runs', async () => {
    await worker!.close();
    worker = null;
    const database = api.app.get<Database>(DATABASE);
    const res = await user.request('POST', '/v1/tickets/distribute', { ticket_ids: [tickets[6]!.id, tickets[7]!.id] });
    expect(res.status).toBe(202);
    const [lost, recalled] = (res.body as unknown as DistributeResponse).distributions.map((d) => ({
      id: d.distribution_id,
      code: d.link.split('/l/')[1]!,
    }));
    // One recalled while no worker runs: stopped at once.
    expect((await user.request('POST', `/v1/distributions/${recalled!.id}/recall`)).status).toBe(202);
    expect((await claim(recalled!.code)).status).toBe(410);
    // As if the process had died after its appends, before writing the counters: the first link's counter was never
    // written, the recall's mark on the second never made.
    await database.query('delete from link_counters where distribution_id = $1', [lost!.id]);
    await database.query('update link_counters set recalled_at = null where distribution_id = $1', [recalled!.id]);
    expect((await claim(lost!.code)).status).toBe(404);

    worker = await startTestWorker(api.config);
    await subscriptionsCaughtUp(worker);
    expect((await claim(lost!.code)).status).toBe(200);
    const gone = await claim(recalled!.code);
    expect(gone.status).toBe(410);
    expect(await gone.json()).toMatchObject({ code: 'LINK_RECALLED' });
    const counters = await database.query<{ distribution_id: string; clicks: number; recalled: boolean }>(
      `select distribution_id, clicks, recalled_at is not null as recalled from link_counters
       where distribution_id = any($1::uuid[]) order by clicks desc`,
      [[lost!.id, recalled!.id]],
    );
    expect(counters).toEqual([
      { distribution_id: lost!.id, clicks: 1, recalled: false },
      { distribution_id: recalled!.id, clicks: 0, recalled: true },
    ]);
  }, 30_000);

  it('gives the credits back when the links cannot be written after the payment', async () => {
    const before = await balanceOf();
    // The payment (on the credit stream, through its own handler) goes through; every link's append fails.
    const store = failingAppends(api.app.get<EventStore>(EVENT_STORE), (stream) =>
      stream.startsWith('ticket-distribution-'),
    );
    const flow = new DistributeTicketsFlow(
      store,
      api.app.get<Database>(DATABASE),
      api.app.get(DistributionSettlements),
      api.app.get(CommandBus),
      new PasswordHasher(),
    );
    const outcome = await flow.execute(
      new DistributeTicketsCommand({
        userId,
        ticketIds: [tickets[2]!.id, tickets[3]!.id],
        expiresAt: null,
        maxClicks: null,
        label: null,
        pin: null,
        commandId: randomUUID(),
      }),
    );
    expect(outcome.distributed).toEqual([]);
    expect(outcome.refused.map((r) => r.ticketId).sort()).toEqual([tickets[2]!.id, tickets[3]!.id].sort());
    await subscriptionsCaughtUp(worker!);
    expect(await balanceOf()).toBe(before);
  });

  it('leaves the give-back to the settle job when the refund fails too, and it gives back once', async () => {
    // The payment (on the credit stream, through its own handler) goes through; every link's append fails.
    const store = failingAppends(api.app.get<EventStore>(EVENT_STORE), (stream) =>
      stream.startsWith('ticket-distribution-'),
    );
    const bus = api.app.get(CommandBus);
    const database = api.app.get<Database>(DATABASE);
    const before = await balanceOf();
    const commandId = randomUUID();
    // The refund fails too (the database is still away when the request gives back what it paid).
    const failingRefunds = {
      execute: async (command: object) => {
        if (isCredits(command, 'RefundCredits')) throw new Error('injected: the refund failed');
        return bus.execute(command as never);
      },
    } as unknown as CommandBus;
    const settlements = new DistributionSettlements(
      api.app.get<EventStore>(EVENT_STORE),
      database,
      api.config,
      failingRefunds,
    );
    const flow = new DistributeTicketsFlow(store, database, settlements, bus, new PasswordHasher());
    const outcome = await flow.execute(
      new DistributeTicketsCommand({
        userId,
        ticketIds: [tickets[4]!.id],
        expiresAt: null,
        maxClicks: null,
        label: null,
        pin: null,
        commandId,
      }),
    );
    expect(outcome.distributed).toEqual([]);
    expect(outcome.refused.map((r) => r.code)).toEqual(['LINK_NOT_MADE']);
    await subscriptionsCaughtUp(worker!);
    expect(await balanceOf()).toBe(before - 5);
    // What it paid for is kept in the database, due in a minute.
    const due = await database.query<{ command_id: string; due_at: Date }>(
      'select command_id, due_at from distribution_settlements where command_id = $1',
      [commandId],
    );
    expect(due).toHaveLength(1);
    expect(due[0]!.due_at.getTime()).toBeGreaterThan(Date.now() + 30_000);
    // Not due yet: nothing happens. Once due (moved to now here), the settle job gives the credits back, once.
    const job = worker!.get(SettleDistributionsJob);
    await job.run();
    expect(await balanceOf()).toBe(before - 5);
    await database.query('update distribution_settlements set due_at = now() where command_id = $1', [commandId]);
    // A settle that fails (its refund here) gives the row back due 2 s later, not at the end of its minute's lease;
    // each try after waits twice as long.
    const retried = async () =>
      (
        await database.query<{ attempts: number; last_error: string; wait_ms: number }>(
          `select attempts, last_error, (extract(epoch from due_at - now()) * 1000)::float8 as wait_ms
             from distribution_settlements where command_id = $1`,
          [commandId],
        )
      )[0]!;
    expect(await settlements.settleDue()).toBeGreaterThan(0);
    const once = await retried();
    expect([once.attempts, once.last_error]).toEqual([1, 'injected: the refund failed']);
    expect(once.wait_ms).toBeGreaterThan(0);
    expect(once.wait_ms).toBeLessThanOrEqual(2000);
    await database.query('update distribution_settlements set due_at = now() where command_id = $1', [commandId]);
    expect(await settlements.settleDue()).toBeGreaterThan(0);
    const twice = await retried();
    expect(twice.attempts).toBe(2);
    expect(twice.wait_ms).toBeGreaterThan(2000);
    expect(twice.wait_ms).toBeLessThanOrEqual(4000);
    expect(await balanceOf()).toBe(before - 5);
    await database.query('update distribution_settlements set due_at = now() where command_id = $1', [commandId]);
    await Promise.all([job.run(), job.run(), worker!.get(SettleDistributionsJob).run()]);
    await subscriptionsCaughtUp(worker!);
    expect(await balanceOf()).toBe(before);
    expect(
      await database.query('select 1 from distribution_settlements where command_id = $1', [commandId]),
    ).toHaveLength(0);
    const refunds = (await api.app.get<EventStore>(EVENT_STORE).readStream(`credits-${userId}`)).events.filter(
      (e) => e.type === 'CreditsRefunded' && (e.data as { reference: string }).reference === commandId,
    );
    expect(refunds).toHaveLength(1);
  });

  it('takes nothing for links the settle gave up before the request paid (a request stalled past its settle, then killed)', async () => {
    const bus = api.app.get(CommandBus);
    const database = api.app.get<Database>(DATABASE);
    const settlements = worker!.get(DistributionSettlements);
    const before = await balanceOf();
    const commandId = randomUUID();
    const stalledThenKilled = {
      execute: async (command: object) => {
        if (!isCredits(command, 'DebitCredits')) return bus.execute(command as never);
        // Stalled past its settle delay: the settle job finds the row and gives its links up.
        await database.query('update distribution_settlements set due_at = now() where command_id = $1', [commandId]);
        expect(await settlements.settleDue()).toBeGreaterThan(0);
        // Then it wakes up, pays, and is killed before it can append or settle anything.
        await bus.execute(command as never);
        throw new Error('injected: the process was killed');
      },
    } as unknown as CommandBus;
    const flow = new DistributeTicketsFlow(
      api.app.get<EventStore>(EVENT_STORE),
      database,
      api.app.get(DistributionSettlements),
      stalledThenKilled,
      new PasswordHasher(),
    );
    await expect(
      flow.execute(
        new DistributeTicketsCommand({
          userId,
          ticketIds: [tickets[5]!.id],
          expiresAt: null,
          maxClicks: null,
          label: null,
          pin: null,
          commandId,
        }),
      ),
    ).rejects.toThrow(/killed/);
    await subscriptionsCaughtUp(worker!);
    // Nothing is left to settle, and nothing was taken: the payment of a link given up is cancelled.
    expect(await database.query('select 1 from distribution_settlements where command_id = $1', [commandId])).toEqual(
      [],
    );
    expect(await balanceOf()).toBe(before);
    const types = (await api.app.get<EventStore>(EVENT_STORE).readStream(`credits-${userId}`)).events
      .filter((e) => (e.data as { reference?: string }).reference === commandId)
      .map((e) => e.type);
    expect(types).toEqual(['LinkPaymentsCancelled']);
  });
});
