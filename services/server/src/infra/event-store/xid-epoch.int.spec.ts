import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Database, openDatabase } from '../db/database.js';
import {
  type ClusterToolchain,
  describeWithThrowawayCluster,
  ThrowawayCluster,
} from '../../testing/throwaway-cluster.js';
import { APPEND_SQL, appendParams, decodePosition, SqlEventStore } from './sql-event-store.js';

/*
 * Transaction ids are 64-bit in the feed (pg_current_xact_id: epoch << 32 | xid) but 32-bit in pg_stat_activity and
 * pg_prepared_xacts. Once a cluster has run ~4 billion transactions (xid epoch >= 1) the two no longer compare:
 * seatlink_read_all once bounded the feed by the 32-bit backend_xid of the oldest open transaction, so any open
 * transaction stalled it. This suite runs on a throwaway cluster whose xid epoch is set to 1 (pg_resetwal -e 1 after
 * initdb), and shows the feed's bound right there: younger transactions and transactions of other databases do not hold
 * the feed back, older ones of this database (open or prepared) do, until they commit.
 */

const TWO_TO_32 = 2n ** 32n;
const DATABASE = 'feed';
const OTHER_DATABASE = 'elsewhere';

/** The transaction id of a feed position. */
const txOf = (position: string) => decodePosition(position)[1];

describeWithThrowawayCluster(
  'event store: the feed on a cluster past 2^32 transactions (xid epoch 1)',
  { tools: ['pg_resetwal'] },
  xidEpochSuite,
);

function xidEpochSuite(toolchain: ClusterToolchain) {
  let cluster: ThrowawayCluster | undefined;
  let database: Database | undefined;
  let store: SqlEventStore;

  beforeAll(async () => {
    cluster = new ThrowawayCluster(toolchain, {
      name: 'seatlink-xid-epoch-',
      xidEpoch: 1,
      settings: { max_prepared_transactions: '4' },
    });
    await cluster.start();
    const url = await cluster.createDatabase(DATABASE);
    await cluster.createDatabase(OTHER_DATABASE);
    database = await openDatabase({ url, poolSize: 4 });
    await database.migrate();
    store = new SqlEventStore(database);
  });

  afterAll(async () => {
    await database?.close().catch(() => undefined);
    await cluster?.stop();
  });

  /** Appends one event to a stream of its own. */
  async function appendOne(): Promise<{ id: string; position: string }> {
    const id = randomUUID();
    const { position } = await store.appendToStream(`xid-${randomUUID()}`, [{ id, type: 'Noted', data: {} }], {
      expectedRevision: 'no_stream',
    });
    return { id, position };
  }

  /** The ids of the events the feed shows after a position, in feed order (one read, no waiting). */
  async function feedAfter(after: string | null): Promise<string[]> {
    return (await store.readAll(after, 10)).map((e) => e.id);
  }

  /** A transaction on a connection of its own, left open, that has taken a transaction id (answered, 64-bit). */
  async function openTransaction(db: string): Promise<{ client: pg.Client; xid: bigint; pid: number }> {
    const client = await cluster!.connect(db);
    await client.query('begin');
    const { rows } = await client.query<{ xid: string; pid: number }>(
      'select pg_current_xact_id()::text as xid, pg_backend_pid() as pid',
    );
    return { client, xid: BigInt(rows[0]!.xid), pid: rows[0]!.pid };
  }

  /** What pg_stat_activity shows of a backend's transaction id (its low 32 bits). */
  async function backendXidOf(pid: number): Promise<bigint> {
    const [row] = await database!.query<{ xid: string }>(
      'select backend_xid::text as xid from pg_stat_activity where pid = $1',
      [pid],
    );
    return BigInt(row!.xid);
  }

  it('hands out transaction ids above 2^32, and the events carry them', async () => {
    const appended = await appendOne();
    const rows = await database!.query<{ tx: string }>('select transaction_id::text as tx from events');
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(BigInt(row.tx)).toBeGreaterThan(TWO_TO_32);
    const [own] = await database!.query<{ tx: string }>(
      'select transaction_id::text as tx from events where event_id = $1',
      [appended.id],
    );
    expect(txOf(appended.position)).toBe(BigInt(own!.tx));
    expect(txOf(appended.position) >> 32n).toBe(1n);
  });

  it('shows an event at once while a younger transaction of this database is open', async () => {
    const before = await store.headPosition();
    const event = await appendOne();
    const younger = await openTransaction(DATABASE);
    try {
      expect(younger.xid).toBeGreaterThan(txOf(event.position));
      // The premise: pg_stat_activity shows it, as the 32-bit id that is far below the event's.
      expect(await backendXidOf(younger.pid)).toBe(younger.xid % TWO_TO_32);
      expect(younger.xid % TWO_TO_32).toBeLessThan(txOf(event.position));

      expect(await feedAfter(before)).toEqual([event.id]);
    } finally {
      await younger.client.query('rollback');
      await younger.client.end();
    }
  });

  it('holds an event back behind an older open transaction of this database until it commits', async () => {
    const before = await store.headPosition();
    const first = await appendOne();
    const older = await openTransaction(DATABASE);
    try {
      // The older transaction appends an event of its own: it commits after the next one, at a lower position.
      const olderId = randomUUID();
      await older.client.query(
        APPEND_SQL,
        appendParams(`xid-${randomUUID()}`, 'no_stream', [{ id: olderId, type: 'Noted', data: {} }]),
      );
      const second = await appendOne();
      expect(txOf(first.position)).toBeLessThan(older.xid);
      expect(txOf(second.position)).toBeGreaterThan(older.xid);

      expect(await feedAfter(before)).toEqual([first.id]);
      await older.client.query('commit');
      expect(await feedAfter(before)).toEqual([first.id, olderId, second.id]);
    } finally {
      await older.client.end();
    }
  });

  it('holds an event back behind an older prepared transaction of this database until it commits', async () => {
    const before = await store.headPosition();
    const first = await appendOne();
    const older = await openTransaction(DATABASE);
    const gid = `xid-epoch-${randomUUID()}`;
    try {
      await older.client.query(`prepare transaction '${gid}'`);
      const second = await appendOne();
      expect(txOf(first.position)).toBeLessThan(older.xid);
      expect(txOf(second.position)).toBeGreaterThan(older.xid);

      expect(await feedAfter(before)).toEqual([first.id]);
      await older.client.query(`commit prepared '${gid}'`);
      expect(await feedAfter(before)).toEqual([first.id, second.id]);
    } finally {
      await older.client.query(`rollback prepared '${gid}'`).catch(() => undefined);
      await older.client.end();
    }
  });

  it('shows an event at once while an older transaction of another database is open', async () => {
    const before = await store.headPosition();
    const elsewhere = await openTransaction(OTHER_DATABASE);
    try {
      const event = await appendOne();
      expect(txOf(event.position)).toBeGreaterThan(elsewhere.xid);
      // The premise: the cluster-wide horizon is held back by it, so a cluster-wide bound would hold the event.
      const [snapshot] = await database!.query<{ xmin: string }>(
        'select pg_snapshot_xmin(pg_current_snapshot())::text as xmin',
      );
      expect(BigInt(snapshot!.xmin)).toBeLessThanOrEqual(elsewhere.xid);

      expect(await feedAfter(before)).toEqual([event.id]);
    } finally {
      await elsewhere.client.query('rollback');
      await elsewhere.client.end();
    }
  });

  it('does not take the cluster for a restored one: migrating again keeps epoch 0', async () => {
    await appendOne();
    await database!.migrate();
    const [meta] = await database!.query<{ epoch: number; rebased: boolean }>(
      'select epoch, rebased_at is not null as rebased from event_store_meta where id = 1',
    );
    expect(meta).toEqual({ epoch: 0, rebased: false });
    const [head] = await database!.query<{ epoch: number }>(
      'select epoch from events order by epoch desc, transaction_id desc limit 1',
    );
    expect(head!.epoch).toBe(0);
  });
}
