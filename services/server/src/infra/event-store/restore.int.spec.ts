import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Database, openDatabase } from '../db/database.js';
import { readCheckpoint } from '../subscriptions/checkpoints.js';
import { SubscriptionHost } from '../subscriptions/subscription-host.js';
import type { Subscription } from '../subscriptions/subscription.js';
import { createScratchDatabase, testEnv } from '../../testing/test-database.js';
import {
  type ClusterToolchain,
  describeWithThrowawayCluster,
  runPgTool,
  ThrowawayCluster,
} from '../../testing/throwaway-cluster.js';
import { decodePosition, encodePosition, SqlEventStore } from './sql-event-store.js';

/*
 * Feed positions are (epoch, transaction id, global position). A database dumped with pg_dump and restored into a
 * fresh PostgreSQL cluster keeps its events' transaction ids, but the new cluster hands out ids from ~730 again: new
 * events would sort before the restored ones, behind every checkpoint. Database.migrate() sees this and raises the
 * epoch (seatlink_rebase_if_restored, drizzle/0003). This suite does it for real: a database on the main server, a
 * throwaway cluster made with initdb, pg_dump and pg_restore between them.
 */

/** The main cluster's transaction ids are raised to at least this before the events are written. */
const MIN_SOURCE_XID = 50_000;

describeWithThrowawayCluster(
  'event store: positions survive pg_dump and a restore into a fresh cluster',
  { tools: ['pg_dump', 'pg_restore'], needsServer: true },
  restoreSuite,
);

/** Counts the `Counted` events of each stream. */
const tally: Subscription = {
  name: 'tally',
  kind: 'projection',
  handles: ['Counted'],
  tables: ['tally'],
  async apply(events, { tx }) {
    const counts = new Map<string, number>();
    for (const e of events) counts.set(e.streamId, (counts.get(e.streamId) ?? 0) + 1);
    for (const [streamId, n] of counts) {
      await tx.execute(
        sql`insert into tally (stream_id, n) values (${streamId}, ${n})
            on conflict (stream_id) do update set n = tally.n + excluded.n`,
      );
    }
  },
};

async function tallyOf(database: Database): Promise<Record<string, number>> {
  const rows = await database.query<{ stream_id: string; n: number }>('select stream_id, n from tally');
  return Object.fromEntries(rows.map((r) => [r.stream_id, r.n]));
}

async function epochOf(database: Database): Promise<number> {
  const [row] = await database.query<{ epoch: number }>('select epoch from event_store_meta where id = 1');
  return row!.epoch;
}

/** The transaction id the cluster hands out next (no transaction id is taken by asking). */
async function nextXid(database: Database): Promise<bigint> {
  const [row] = await database.query<{ xid: string }>('select pg_snapshot_xmax(pg_current_snapshot())::text as xid');
  return BigInt(row!.xid);
}

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

function restoreSuite(toolchain: ClusterToolchain) {
  const majorOf = (versionOutput: string) => Number(/(\d+)(?:\.\d+)?/.exec(versionOutput)?.[1] ?? NaN);

  let scratch: { url: string; drop(): Promise<void> } | undefined;
  let source: Database | undefined;
  let restored: Database | undefined;
  let host: SubscriptionHost | undefined;
  let cluster: ThrowawayCluster | undefined;
  let restoredUrl: string;

  // What the source database held at the dump.
  let checkpointBefore: string;
  let headBefore: string;
  let tallyBefore: Record<string, number>;
  let eventCountBefore: number;
  let minSourceTx: bigint;
  const streams = { a: `counter-a-${randomUUID()}`, b: `counter-b-${randomUUID()}`, c: `counter-c-${randomUUID()}` };

  beforeAll(async () => {
    // pg_dump cannot dump a server of a newer major version.
    const serverMajor = majorOf(
      await withClient(
        testEnv.databaseUrl,
        async (c) => (await c.query<{ server_version: string }>('show server_version')).rows[0]!.server_version,
      ),
    );
    const toolMajor = majorOf(await runPgTool(toolchain, 'pg_dump', ['--version']));
    if (!(toolMajor >= serverMajor)) {
      throw new Error(`pg_dump ${toolMajor} (${toolchain.binDir}) cannot dump the PostgreSQL ${serverMajor} server`);
    }

    // The source: a database on the main server whose events carry large transaction ids.
    scratch = await createScratchDatabase(testEnv.databaseUrl);
    source = await openDatabase({ url: scratch.url, poolSize: 4 });
    await source.migrate();
    const xid = await nextXid(source);
    if (xid < BigInt(MIN_SOURCE_XID)) {
      // Burns transaction ids: one short transaction each (cluster-wide, so the fresh cluster is clearly behind).
      await withClient(scratch.url, async (c) => {
        await c.query('set synchronous_commit = off');
        await c.query(
          `do $$ begin
             for i in 1..${MIN_SOURCE_XID - Number(xid)} loop perform pg_current_xact_id(); commit; end loop;
           end $$`,
        );
      });
    }
    expect(await nextXid(source)).toBeGreaterThanOrEqual(BigInt(MIN_SOURCE_XID));
    await source.query('create table tally (stream_id text primary key, n integer not null)');

    const store = new SqlEventStore(source);
    const counted = () => [{ id: randomUUID(), type: 'Counted', data: {} }];
    // Separate appends: separate transactions, so distinct transaction ids.
    await store.appendToStream(streams.a, counted(), { expectedRevision: 'no_stream' });
    await store.appendToStream(streams.b, counted(), { expectedRevision: 'no_stream' });
    await store.appendToStream(streams.a, counted(), { expectedRevision: 0 });
    await store.appendToStream(streams.c, [...counted(), ...counted(), ...counted()], {
      expectedRevision: 'no_stream',
    });
    await store.appendToStream(streams.b, [{ id: randomUUID(), type: 'Noted', data: {} }], { expectedRevision: 0 });
    await store.appendToStream(streams.a, counted(), { expectedRevision: 1 });

    // The subscription catches up, so its checkpoint holds a position with one of those large transaction ids.
    host = new SubscriptionHost(source, store, [tally], { pollMs: 50, lockRetryMs: 50 });
    host.start();
    headBefore = (await store.headPosition())!;
    await waitFor(
      'the tally to catch up on the source',
      async () => (await readCheckpoint(source!, 'tally')) === headBefore,
    );
    await host.stop();
    host = undefined;
    checkpointBefore = (await readCheckpoint(source, 'tally'))!;
    tallyBefore = await tallyOf(source);
    expect(tallyBefore).toEqual({ [streams.a]: 3, [streams.b]: 1, [streams.c]: 3 });
    expect(await epochOf(source)).toBe(0);
    const [stats] = await source.query<{ n: number; min_tx: string }>(
      'select count(*)::int as n, min(transaction_id)::text as min_tx from events',
    );
    eventCountBefore = stats!.n;
    minSourceTx = BigInt(stats!.min_tx);
    await source.close();
    source = undefined;

    // A fresh cluster of its own.
    cluster = new ThrowawayCluster(toolchain, { name: 'seatlink-restore-' });
    await cluster.start();

    // pg_dump from the main server, pg_restore into a new database of the fresh cluster.
    const dumpFile = path.join(cluster.dir, 'source.dump');
    await runPgTool(toolchain, 'pg_dump', ['--format=custom', `--file=${dumpFile}`, `--dbname=${scratch.url}`]);
    restoredUrl = await cluster.createDatabase('restored');
    await runPgTool(toolchain, 'pg_restore', [
      '--no-owner',
      '--no-acl',
      '--exit-on-error',
      `--dbname=${restoredUrl}`,
      dumpFile,
    ]);
  });

  afterAll(async () => {
    await host?.stop().catch(() => undefined);
    await restored?.close().catch(() => undefined);
    await source?.close().catch(() => undefined);
    await cluster?.stop();
    await scratch?.drop();
  });

  it('restores the events, the checkpoint and the read model as they were, with ids the cluster has not reached', async () => {
    const copy = await openDatabase({ url: restoredUrl, poolSize: 2 });
    try {
      const [stats] = await copy.query<{ n: number }>('select count(*)::int as n from events');
      expect(stats!.n).toBe(eventCountBefore);
      expect(await readCheckpoint(copy, 'tally')).toBe(checkpointBefore);
      expect(await new SqlEventStore(copy).headPosition()).toBe(headBefore);
      expect(await tallyOf(copy)).toEqual(tallyBefore);
      expect(await epochOf(copy)).toBe(0);
      // The premise: the fresh cluster's next transaction id is below every restored one.
      expect(await nextXid(copy)).toBeLessThan(minSourceTx);
    } finally {
      await copy.close();
    }
  });

  it('raises the epoch on migrate, so the restored subscription reads the next event', async () => {
    restored = await openDatabase({ url: restoredUrl, poolSize: 4 });
    expect(await epochOf(restored)).toBe(0);
    await restored.migrate();
    expect(await epochOf(restored)).toBe(1);
    const [meta] = await restored.query<{ rebased: boolean }>(
      'select rebased_at is not null as rebased from event_store_meta where id = 1',
    );
    expect(meta!.rebased).toBe(true);

    const store = new SqlEventStore(restored);
    const eventId = randomUUID();
    const appended = await store.appendToStream(streams.a, [{ id: eventId, type: 'Counted', data: {} }], {
      expectedRevision: 2,
    });
    expect(decodePosition(appended.position)[0]).toBe(1n);
    expect(store.comparePositions(appended.position, checkpointBefore)).toBe(1);
    expect(store.comparePositions(appended.position, headBefore)).toBe(1);

    // The control: the new event's own transaction id is below the restored ones. Without the epoch it would have
    // sorted before the restored checkpoint, and the subscription would never have read it.
    const [row] = await restored.query<{ tx: string; pos: string }>(
      'select transaction_id::text as tx, global_position::text as pos from events where event_id = $1',
      [eventId],
    );
    const [, checkpointTx] = decodePosition(checkpointBefore);
    expect(BigInt(row!.tx)).toBeLessThan(checkpointTx);
    expect(BigInt(row!.tx)).toBeLessThan(minSourceTx);
    expect(store.comparePositions(encodePosition(0, row!.tx, row!.pos), checkpointBefore)).toBe(-1);

    // After the restored checkpoint, the feed holds exactly the new event.
    const after = await store.readAll(checkpointBefore, 100);
    expect(after.map((e) => e.id)).toEqual([eventId]);
    expect(after[0]!.position).toBe(appended.position);

    // The subscription, started on the restored database, picks it up from its restored checkpoint.
    host = new SubscriptionHost(restored, store, [tally], { pollMs: 50, lockRetryMs: 50 });
    host.start();
    await waitFor(
      'the tally to read the new event',
      async () => (await readCheckpoint(restored!, 'tally')) === appended.position,
    );
    await host.stop();
    host = undefined;
    expect(await tallyOf(restored)).toEqual({ ...tallyBefore, [streams.a]: tallyBefore[streams.a]! + 1 });

    // Migrating again does not raise the epoch again: the events of epoch 1 carry ids this cluster has reached.
    await restored.migrate();
    expect(await epochOf(restored)).toBe(1);
  });
}
