import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { ClickTimelineResponse, DistributeResponse, HealthResponse, Ticket } from '@seatlink/contracts';
import type { WalletSimApp } from '@seatlink/wallet-sim';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, startTestStack, subscriptionsCaughtUp, type TestStack } from '../../testing/test-app.js';
import { claimLink, makeLink, newLinkHolder, type LinkHolder } from '../../testing/link-holder.js';
import { simControl, startSim } from '../../testing/wallet-fixture.js';
import { DATABASE } from './database.module.js';
import type { Database } from './database.js';
import { ReadFloors } from './read-floors.js';
import { ReadReplicas, type ReadTarget } from './read-replicas.js';

/**
 * Reads from a streaming replica (DATABASE_READ_URL): never less than the reader wrote or was told of, a replica
 * paused or stopped left out (its reads go to the primary, no 5xx), and back once it has caught up. Runs where a
 * replica of the run's PostgreSQL answers (SEATLINK_TEST_REPLICA_URL: `.ci/run` starts one with
 * scripts/local-replica.sh).
 */
const REPLICA_URL = process.env.SEATLINK_TEST_REPLICA_URL;
const SCRIPT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../../scripts/local-replica.sh');
const run = promisify(execFile);

describe.skipIf(!REPLICA_URL)('read replicas', () => {
  let sim: WalletSimApp;
  let control: ReturnType<typeof simControl>;
  let stack: TestStack;
  let admin: ApiClient;
  let replicas: ReadReplicas;
  /** The replica's own server (not the stack's database): to pause and resume its replay. */
  let replica: pg.Pool;
  const targets: ReadTarget[] = [];

  const health = async () => (await admin.request('GET', '/v1/admin/health')).body as unknown as HealthResponse;
  const ticketsOf = async (client: ApiClient) => {
    const res = await client.request('GET', '/v1/tickets');
    expect(res.status).toBe(200);
    return res.body.tickets as Ticket[];
  };
  /** Where the reads in `read` ran. */
  const readFrom = async (read: () => Promise<unknown>): Promise<ReadTarget[]> => {
    const from = targets.length;
    await read();
    return targets.slice(from);
  };
  /** Until the replica has replayed all the primary holds now, and is in use. */
  const caughtUp = async () => {
    await expect
      .poll(
        async () => {
          await replicas.poll();
          return replicas.states()[0];
        },
        { timeout: 20_000, interval: 100 },
      )
      .toMatchObject({ inUse: true, lagBytes: 0 });
  };

  beforeAll(async () => {
    let url: string;
    ({ sim, url } = await startSim());
    control = simControl(url);
    stack = await startTestStack({
      readReplicaUrl: REPLICA_URL!,
      env: {
        WALLET_PROVIDER_URL: url,
        WALLET_SYNC_FOLLOW_UPS_MS: '',
        DATABASE_READ_POLL_MS: '50',
        DATABASE_READ_MAX_LAG_MS: '30000',
      },
    });
    replicas = stack.app.get(ReadReplicas);
    const counted = replicas.onRead;
    replicas.onRead = (target) => {
      targets.push(target);
      counted(target);
    };
    replica = new pg.Pool({ connectionString: REPLICA_URL, max: 2 });
    // Its connections end when the replica is stopped on purpose.
    replica.on('error', () => undefined);
    admin = new ApiClient(stack.baseUrl);
    await admin.login('admin@seatlink.test', 'Admin123!');
  }, 60_000);
  afterAll(async () => {
    await replica?.query('select pg_wal_replay_resume()').catch(() => undefined);
    await run('bash', [SCRIPT, 'start']).catch(() => undefined);
    await replica?.end();
    await stack?.close();
    await sim?.close();
  });

  it('reads from the replica once it has caught up, and says its lag in the health check', async () => {
    const holder = await newLinkHolder(stack, admin, control, { tickets: 2 });
    await caughtUp();
    expect(await readFrom(() => ticketsOf(holder.client))).toEqual(['replica']);
    const [state] = (await health()).replicas;
    expect(state).toMatchObject({ in_use: true, problem: null, lag_bytes: 0 });
    expect(state!.name).toMatch(/^127\.0\.0\.1:\d+$/);
  });

  it('while the replica is paused, a reader sees their own writes at once, and one who wrote nothing reads the replica', async () => {
    const holder = await newLinkHolder(stack, admin, control, { tickets: 3 });
    const bystander = await newLinkHolder(stack, admin, control, { tickets: 1 });
    await caughtUp();
    await replica.query('select pg_wal_replay_pause()');
    try {
      // Writes and reads of one holder, one after the other and at once: every read shows every write before it.
      const made: DistributeResponse[] = [];
      for (const ticket of holder.tickets) {
        const res = await holder.client.request('POST', '/v1/tickets/distribute', { ticket_ids: [ticket.id] });
        expect(res.status).toBe(200);
        made.push(res.body as unknown as DistributeResponse);
        const listed = await ticketsOf(holder.client);
        expect(listed.find((t) => t.id === ticket.id)!.distribution).not.toBeNull();
      }
      const id = made[0]!.distributions[0]!.distribution_id;
      const edits = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          holder.client
            .request('PATCH', `/v1/distributions/${id}`, { label: `edit ${i}` })
            .then(async (res) => ({ res, after: await ticketsOf(holder.client) })),
        ),
      );
      for (const { res, after } of edits) {
        expect(res.status).toBeLessThan(300);
        // At least the label its own edit gave, or a later one.
        expect(after.find((t) => t.id === holder.tickets[0]!.id)!.distribution!.label).toMatch(/^edit \d$/);
      }
      // Someone who wrote nothing since the pause reads the (paused) replica: what it had is theirs.
      expect(await readFrom(() => ticketsOf(bystander.client))).toEqual(['replica']);
      // The holder reads from the primary until the replica shows their writes.
      expect(await readFrom(() => ticketsOf(holder.client))).toEqual(['primary']);
      expect((await health()).replicas[0]).toMatchObject({ in_use: true });
    } finally {
      await replica.query('select pg_wal_replay_resume()');
    }
    await caughtUp();
    await expect.poll(() => readFrom(() => ticketsOf(holder.client)), { timeout: 10_000 }).toEqual(['replica']);
  });

  it('a click the holder was told of live is in their next read, from wherever it comes', async () => {
    const holder: LinkHolder = await newLinkHolder(stack, admin, control, { tickets: 1 });
    const link = await makeLink(holder.client, holder.tickets[0]!, { max_clicks: 5 });
    await caughtUp();
    await replica.query('select pg_wal_replay_pause()');
    try {
      expect((await claimLink(stack.baseUrl, link.code)).status).toBe(200);
      // Once the click is pushed (the projections have run), its reader's floor is past it.
      await subscriptionsCaughtUp(stack.app);
      await new Promise((r) => setTimeout(r, 100));
      const res = await holder.client.request('GET', `/v1/distributions/${link.distributionId}/clicks`);
      expect(res.status).toBe(200);
      expect((res.body as unknown as ClickTimelineResponse).clicks).toBe(1);
    } finally {
      await replica.query('select pg_wal_replay_resume()');
    }
  });

  it('leaves out a replica behind past the bound, and takes it back once it has caught up', async () => {
    const database = stack.app.get<Database>(DATABASE);
    // The stack's replica under a bound of 300 ms, looked at by hand.
    const strict = new ReadReplicas(database, new ReadFloors(null, 'strict', 60_000), {
      urls: stack.config.DATABASE_READ_URL,
      timeouts: { statementMs: 5000, lockMs: 1000, idleInTransactionMs: 5000, connectMs: 2000 },
      maxLagMs: 300,
      pollMs: 60_000,
      poolSize: 1,
    });
    try {
      await caughtUp();
      await replica.query('select pg_wal_replay_pause()');
      // A change on the primary the paused replica does not replay.
      await database.query(`select pg_logical_emit_message(true, 'seatlink-test', 'behind')`);
      await new Promise((r) => setTimeout(r, 600));
      await strict.poll();
      const [behind] = strict.states();
      expect(behind).toMatchObject({ inUse: false, problem: expect.stringMatching(/behind the primary/) as unknown });
      expect(behind!.lagBytes).toBeGreaterThan(0);
      // Its readers are served by the primary meanwhile.
      const served: ReadTarget[] = [];
      strict.onRead = (t) => served.push(t);
      await strict.read(['nobody'], (db) => db.execute('select 1'));
      expect(served).toEqual(['primary']);
    } finally {
      await replica.query('select pg_wal_replay_resume()');
    }
    await expect
      .poll(
        async () => {
          await strict.poll();
          return strict.states()[0];
        },
        { timeout: 10_000, interval: 100 },
      )
      .toMatchObject({ inUse: true, lagBytes: 0, problem: null });
    await strict.close();
  });

  it('leaves out a replica that stops, with no error to readers, and takes it back once started again', async () => {
    const holder = await newLinkHolder(stack, admin, control, { tickets: 3 });
    await caughtUp();
    await run('bash', [SCRIPT, 'stop']);
    try {
      // Reads and writes go on: the reads that found the replica gone are read again from the primary.
      const answers = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          i % 10 === 0
            ? holder.client.request('POST', '/v1/tickets/distribute', { ticket_ids: [holder.tickets[i / 10]!.id] })
            : holder.client.request('GET', '/v1/tickets'),
        ),
      );
      expect(answers.map((a) => a.status).filter((s) => s >= 500)).toEqual([]);
      await expect
        .poll(async () => (await health()).replicas[0], { timeout: 10_000 })
        .toMatchObject({ in_use: false, problem: expect.stringMatching(/does not answer/) as unknown });
      // Said in its entry; the deployment is not unhealthy for it (the primary serves its reads).
      expect((await health()).problems.filter((p) => p.includes('replica'))).toEqual([]);
      expect(await readFrom(() => ticketsOf(holder.client))).toEqual(['primary']);
    } finally {
      await run('bash', [SCRIPT, 'start']);
    }
    await caughtUp();
    await expect.poll(() => readFrom(() => ticketsOf(holder.client)), { timeout: 10_000 }).toEqual(['replica']);
  });
});
