import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../db/database.js';
import { createScratchDatabase, createTestDatabase, type TestDatabase, testEnv } from '../../testing/test-database.js';
import type { RecordedEvent } from './event-store.port.js';
import { APPEND_SQL, appendParams, decodePosition, encodePosition, SqlEventStore } from './sql-event-store.js';

/*
 * The feed's gap safety on the real PostgreSQL, under harder conditions than the contract's gap test: writers that hold
 * explicit transactions open around their appends, roll some back, append several events at once; a reader with small
 * pages; busy and long transactions in another database of the cluster. And the controls: a reader ordered by the
 * global position alone does lose events, and a transaction open in this database does hold the feed back.
 */

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const randomInt = (min: number, max: number) => min + Math.floor(Math.random() * (max - min + 1));

interface AppendRow {
  stream_position: number;
  epoch: number;
  tx: string;
  pos: string;
}

interface WireEvent {
  id: string;
  type: string;
  data: Record<string, unknown>;
}

const wireEvent = (type: string, data: Record<string, unknown>): WireEvent => ({ id: randomUUID(), type, data });

/** The transaction id of a feed position. */
const txOf = (position: string) => decodePosition(position)[1];

/** Every client this file opens; afterAll ends those still open. */
const clients = new Set<pg.Client>();

/** A connection of its own (not a pool's): its explicit transactions stay on it. */
async function connect(url: string, name: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, application_name: name });
  // Dropping a database ends its sessions: that must not become an unhandled error.
  client.on('error', () => undefined);
  clients.add(client);
  await client.connect();
  return client;
}

async function disconnect(client: pg.Client) {
  if (!clients.delete(client)) return;
  await client.end().catch(() => undefined);
}

/** The store's append statement on the client's connection, inside whatever transaction it has open. */
async function append(client: pg.Client, streamId: string, expected: number, events: WireEvent[]): Promise<AppendRow> {
  const { rows } = await client.query<AppendRow>(APPEND_SQL, appendParams(streamId, expected, events));
  const row = rows.at(-1);
  if (!row)
    throw Object.assign(new Error(`append to ${streamId} refused (expected revision ${expected})`), {
      code: 'REFUSED',
    });
  return row;
}

interface Workload {
  /** Ids of events whose transaction's COMMIT succeeded. */
  committed: Set<string>;
  /** Ids of events whose transaction was rolled back. */
  rolledBack: Set<string>;
  transactions: number;
}

/**
 * Writers, each on a connection of its own, each running `transactions` explicit transactions:
 * BEGIN; sleep 0-15 ms; append (1 event, or 1-4 for every third writer; sometimes a second append in the same
 * transaction); sleep 0-20 ms; COMMIT, or ROLLBACK for about 15 % of them. Most appends go to the writer's own stream
 * with its exact expected revision, some to a few shared streams with `any` (waits on the position's key: a
 * transaction whose id is older may take its global position after a younger one; when two take the same position,
 * the later one fails and is rolled back).
 */
async function runWriters(
  url: string,
  runId: string,
  options: { writers: number; transactions: number },
  workload: Workload = { committed: new Set(), rolledBack: new Set(), transactions: 0 },
): Promise<Workload> {
  const shared = (k: number) => `${runId}-shared-${k}`;
  await Promise.all(
    Array.from({ length: options.writers }, async (_, w) => {
      const client = await connect(url, `feed-gaps-writer-${w}`);
      try {
        const own = `${runId}-own-${w}`;
        let revision = -1; // the own stream's committed revision; -1 is also the code of "no stream"
        for (let t = 0; t < options.transactions; t++) {
          const count = w % 3 === 0 ? randomInt(1, 4) : 1;
          const events = Array.from({ length: count }, (_, k) => wireEvent('FeedGap', { run: runId, w, t, k }));
          const toShared = Math.random() < 0.12;
          // Own stream first, then one shared stream: no two transactions lock streams in opposite orders.
          const second = !toShared && Math.random() < 0.1 ? [wireEvent('FeedGapSecond', { run: runId, w, t })] : [];
          const ids = [...events, ...second].map((e) => e.id);
          await client.query('BEGIN');
          await client.query('select pg_sleep(random() * 0.015)');
          try {
            await append(client, toShared ? shared(randomInt(0, 3)) : own, toShared ? -2 : revision, events);
            if (second.length > 0) await append(client, shared(randomInt(0, 3)), -2, second);
          } catch (err) {
            // Two appends to a shared stream wanted the same position: the later one inserts nothing and its
            // transaction is rolled back (an aborted append, which must not be seen either).
            // REFUSED: no position was free; 40001: only some were (the append is whole or nothing).
            if (!['REFUSED', '40001'].includes((err as { code?: string }).code ?? '')) throw err;
            await client.query('ROLLBACK');
            workload.transactions++;
            for (const id of ids) workload.rolledBack.add(id);
            continue;
          }
          await client.query('select pg_sleep(random() * 0.020)');
          workload.transactions++;
          if (Math.random() < 0.15) {
            await client.query('ROLLBACK');
            for (const id of ids) workload.rolledBack.add(id);
          } else {
            await client.query('COMMIT');
            for (const id of ids) workload.committed.add(id);
            if (!toShared) revision += count;
          }
        }
      } finally {
        await disconnect(client);
      }
    }),
  );
  return workload;
}

/** Tells a follower when to stop: once the writers are done, the head they left (and when they were done). */
interface End {
  head?: string | null;
  at?: number;
}

/**
 * A live reader of the gap-safe feed with small pages (3-7 events, varying), from `start` until it stands at the
 * head the writers left (or 10 s after they were done, or at `hardDeadline`: the counts then fail).
 */
function followFeed(store: SqlEventStore, start: string | null, end: End, hardDeadline: number) {
  const seen: RecordedEvent[] = [];
  const done = (async () => {
    let after = start;
    while (Date.now() < hardDeadline && (end.at === undefined || Date.now() < end.at + 10_000)) {
      const head = end.head; // taken before the read: the page then covers it
      const page = await store.readAll(after, randomInt(3, 7));
      seen.push(...page);
      if (page.length > 0) after = page[page.length - 1]!.position;
      else if (head !== undefined && (head === null || (after !== null && store.comparePositions(after, head) >= 0)))
        return;
      else await sleep(1);
    }
  })();
  return { seen, done };
}

/**
 * A live reader of the feed for one type (`readFeedFor`, as a subscription reads it), with pages of 1-3 of its events,
 * moving on to where each page ended (past the events of other types), until it stands at the writers' head.
 */
function followFeedFor(store: SqlEventStore, start: string | null, types: string[], end: End, hardDeadline: number) {
  const seen: RecordedEvent[] = [];
  const done = (async () => {
    let after = start;
    while (Date.now() < hardDeadline && (end.at === undefined || Date.now() < end.at + 10_000)) {
      const head = end.head;
      const page = await store.readFeedFor(after, randomInt(1, 4), types);
      expect(page.events.every((e) => types.includes(e.type))).toBe(true);
      seen.push(...page.events);
      if (page.last !== null) {
        if (after !== null) expect(store.comparePositions(after, page.last)).toBeLessThan(0);
        after = page.last;
      } else if (head !== undefined && (head === null || (after !== null && store.comparePositions(after, head) >= 0)))
        return;
      else await sleep(1);
    }
  })();
  return { seen, done };
}

/** The control: a reader that orders by the global position alone, without a visibility bound. */
function followNaive(database: Database, start: bigint, end: End, hardDeadline: number) {
  const state = { after: start, seen: [] as Array<{ id: string; pos: bigint }> };
  const done = (async () => {
    while (Date.now() < hardDeadline) {
      const finished = end.head !== undefined;
      const rows = await database.query<{ event_id: string; pos: string }>(
        `select event_id, global_position::text as pos from events
         where global_position > $1 order by global_position limit $2`,
        [state.after.toString(), randomInt(3, 7)],
      );
      for (const row of rows) state.seen.push({ id: row.event_id, pos: BigInt(row.pos) });
      if (rows.length > 0) state.after = BigInt(rows[rows.length - 1]!.pos);
      else if (finished) return;
      else await sleep(1);
    }
  })();
  return { state, done };
}

/** Every committed event exactly once, no rolled-back one, positions strictly increasing. */
function expectComplete(store: SqlEventStore, seen: RecordedEvent[], workload: Workload, runId: string) {
  const ours = seen.filter((e) => (e.data as { run?: string }).run === runId);
  const ids = ours.map((e) => e.id);
  expect(new Set(ids).size, 'an event was delivered twice').toBe(ids.length);
  expect(
    ids.filter((id) => workload.rolledBack.has(id)),
    'rolled-back events were delivered',
  ).toEqual([]);
  const missing = [...workload.committed].filter((id) => !ids.includes(id));
  expect(missing, 'committed events the reader never saw').toEqual([]);
  expect(ids.length).toBe(workload.committed.size);
  for (let i = 1; i < seen.length; i++) {
    expect(store.comparePositions(seen[i - 1]!.position, seen[i]!.position)).toBeLessThan(0);
  }
}

describe('feed gaps on PostgreSQL', () => {
  let first: TestDatabase;
  let store: SqlEventStore;
  let second: { url: string; drop(): Promise<void> } | undefined;
  let secondDatabase: Database | undefined;
  let secondStore: SqlEventStore;

  beforeAll(async () => {
    first = await createTestDatabase({ poolSize: 8 });
    store = new SqlEventStore(first.database);
    second = await createScratchDatabase(testEnv.databaseUrl);
    secondDatabase = await openDatabase({ url: second.url, poolSize: 4 });
    await secondDatabase.migrate();
    secondStore = new SqlEventStore(secondDatabase);
  });

  afterAll(async () => {
    for (const client of [...clients]) await disconnect(client);
    await secondDatabase?.close();
    await second?.drop();
    await first?.dispose();
  });

  it('24 writers in explicit transactions, some rolled back, a reader with small pages: every committed event once, none rolled back; a busy other database neither breaks nor stalls it', async () => {
    const runId = `gaps-${randomUUID()}`;

    // The other database: a transaction with an id held open all along (a cluster-wide bound would stop this
    // database's feed at it), and slow writers in a loop.
    const holder = await connect(second!.url, 'feed-gaps-other-holder');
    await holder.query('BEGIN');
    const heldEvent = wireEvent('OtherHeld', { run: runId });
    const heldTx = BigInt((await append(holder, `${runId}-other-held`, -1, [heldEvent])).tx);
    let stopOther = false;
    const otherCommitted = new Set<string>([heldEvent.id]);
    const otherWriters = Promise.all(
      Array.from({ length: 4 }, async (_, w) => {
        const client = await connect(second!.url, `feed-gaps-other-${w}`);
        try {
          for (let t = 0; !stopOther; t++) {
            const e = wireEvent('OtherSlow', { run: runId, w, t });
            await client.query('BEGIN');
            await append(client, `${runId}-other-${w}`, -2, [e]);
            await client.query('select pg_sleep(0.05)');
            await client.query('COMMIT');
            otherCommitted.add(e.id);
          }
        } finally {
          await disconnect(client);
        }
      }),
    );

    try {
      const start = await store.headPosition();
      const end: End = {};
      const reader = followFeed(store, start, end, Date.now() + 45_000);
      // A reader of one rare type, which moves past everything else without reading it.
      const typed = followFeedFor(store, start, ['FeedGapSecond'], end, Date.now() + 45_000);
      const workload = await runWriters(first.url, runId, { writers: 24, transactions: 50 });
      end.at = Date.now();
      end.head = await store.headPosition();
      await reader.done;
      await typed.done;
      const lagMs = Date.now() - end.at;

      // The reader got everything while the other database's transaction was still open.
      const { rows } = await holder.query<{ xid: string }>('select pg_current_xact_id()::text as xid');
      expect(BigInt(rows[0]!.xid)).toBe(heldTx);
      expect(workload.rolledBack.size).toBeGreaterThan(0);
      expectComplete(store, reader.seen, workload, runId);
      // The typed reader: every committed event of its type once (the whole reader above has them all), none other.
      const ofType = new Set(reader.seen.filter((e) => e.type === 'FeedGapSecond').map((e) => e.id));
      expect(ofType.size).toBeGreaterThan(0);
      expectComplete(
        store,
        typed.seen,
        { committed: ofType, rolledBack: workload.rolledBack, transactions: workload.transactions },
        runId,
      );
      // It was older than every event read: only the filter on this database kept it out of the bound.
      for (const e of reader.seen) expect(txOf(e.position)).toBeGreaterThan(heldTx);
      expect(lagMs).toBeLessThan(5_000);
    } finally {
      stopOther = true;
      await otherWriters.catch(() => undefined);
      await holder.query('COMMIT').catch(() => undefined);
      await disconnect(holder);
    }

    // The other database's writers all went through, and its own feed has each of their events once.
    await otherWriters;
    expect(otherCommitted.size).toBeGreaterThan(4);
    const otherSeen: RecordedEvent[] = [];
    let after: string | null = null;
    for (;;) {
      const page = await secondStore.readAll(after, 500);
      if (page.length === 0) break;
      otherSeen.push(...page);
      after = page[page.length - 1]!.position;
    }
    expectComplete(
      secondStore,
      otherSeen,
      { committed: otherCommitted, rolledBack: new Set(), transactions: 0 },
      runId,
    );
  }, 60_000);

  it('control: a reader by global position alone misses an event committed behind it; the gap-safe reader does not', async () => {
    const runId = `control-${randomUUID()}`;
    const start = await store.headPosition();
    const [max] = await first.database.query<{ max: string }>(
      'select coalesce(max(global_position), 0)::text as max from events',
    );
    const end: End = {};
    const hardDeadline = Date.now() + 45_000;
    const gapSafe = followFeed(store, start, end, hardDeadline);
    const naive = followNaive(first.database, BigInt(max!.max), end, hardDeadline);
    const workload: Workload = { committed: new Set(), rolledBack: new Set(), transactions: 0 };
    const writers = runWriters(first.url, runId, { writers: 24, transactions: 30 }, workload);

    // The slow transaction: takes its global position, then stays open (300 ms at least, and until the naive reader
    // has read past that position) while shorter transactions commit later positions.
    const slow = await connect(first.url, 'feed-gaps-slow');
    let slowPassedByNaive: boolean;
    let deliveredPastSlow: string[];
    const slowEvent = wireEvent('Slow', { run: runId });
    try {
      await sleep(100);
      await slow.query('BEGIN');
      const row = await append(slow, `${runId}-slow`, -1, [slowEvent]);
      const slowPos = BigInt(row.pos);
      const slowPosition = encodePosition(row.epoch, row.tx, row.pos);
      const openedAt = Date.now();
      // Later positions committed for sure, whatever the writers do meanwhile.
      for (let i = 0; i < 3; i++) {
        const e = wireEvent('After', { run: runId, i });
        await store.appendToStream(`${runId}-after`, [e]);
        workload.committed.add(e.id);
      }
      while (naive.state.after <= slowPos && Date.now() - openedAt < 10_000) await sleep(5);
      slowPassedByNaive = naive.state.after > slowPos;
      await sleep(Math.max(0, 300 - (Date.now() - openedAt)));
      // Meanwhile the gap-safe reader delivered nothing that sorts at or after the open transaction's event.
      deliveredPastSlow = gapSafe.seen
        .filter((e) => store.comparePositions(e.position, slowPosition) >= 0)
        .map((e) => e.position);
      await slow.query('COMMIT');
      workload.committed.add(slowEvent.id);
    } finally {
      await disconnect(slow);
    }

    await writers;
    end.at = Date.now();
    end.head = await store.headPosition();
    await Promise.all([gapSafe.done, naive.done]);

    expect(slowPassedByNaive, 'the naive reader read past the open transaction before it committed').toBe(true);
    expect(deliveredPastSlow, 'the gap-safe reader passed the open transaction').toEqual([]);
    const naiveIds = new Set(naive.state.seen.map((e) => e.id));
    const naiveMissed = [...workload.committed].filter((id) => !naiveIds.has(id));
    expect(naiveMissed.length).toBeGreaterThan(0);
    expect(naiveMissed).toContain(slowEvent.id);
    for (let i = 1; i < naive.state.seen.length; i++) {
      expect(naive.state.seen[i]!.pos).toBeGreaterThan(naive.state.seen[i - 1]!.pos);
    }
    // The gap-safe reader, in the same run, saw all of them, the slow one included.
    expectComplete(store, gapSafe.seen, workload, runId);
    expect(gapSafe.seen.map((e) => e.id)).toContain(slowEvent.id);
  }, 60_000);

  it('a transaction open in another database does not hold the feed back; one open in this database does, until it ends', async () => {
    const runId = `stall-${randomUUID()}`;
    const readsIt = async (after: string | null, id: string) =>
      (await store.readAll(after, 100)).some((e) => e.id === id);
    /** Whether `readAll` returns the event within `ms`. */
    const seenWithin = async (after: string | null, id: string, ms: number) => {
      const deadline = Date.now() + ms;
      do {
        if (await readsIt(after, id)) return true;
        await sleep(10);
      } while (Date.now() < deadline);
      return false;
    };

    // Another database: a transaction with an id, left open.
    const other = await connect(second!.url, 'feed-gaps-other-open');
    try {
      await other.query('BEGIN');
      const otherXid = BigInt(
        (await other.query<{ xid: string }>('select pg_current_xact_id()::text as xid')).rows[0]!.xid,
      );
      const [activity] = await first.database.query<{ xid: string }>(
        `select backend_xid::text as xid from pg_stat_activity where application_name = 'feed-gaps-other-open'`,
      );
      expect(BigInt(activity!.xid)).toBe(otherXid);

      const start = await store.headPosition();
      const e = wireEvent('NotHeld', { run: runId });
      const appended = await store.appendToStream(`${runId}-a`, [e]);
      expect(txOf(appended.position)).toBeGreaterThan(otherXid);
      const t0 = Date.now();
      expect(await seenWithin(start, e.id, 1_000)).toBe(true);
      expect(Date.now() - t0).toBeLessThan(1_000);
      // Still open.
      const { rows } = await other.query<{ xid: string }>('select pg_current_xact_id()::text as xid');
      expect(BigInt(rows[0]!.xid)).toBe(otherXid);
    } finally {
      await other.query('ROLLBACK').catch(() => undefined);
      await disconnect(other);
    }

    // Control: this database, a transaction with an id begun before the append.
    const local = await connect(first.url, 'feed-gaps-local-open');
    try {
      await local.query('BEGIN');
      const localXid = BigInt(
        (await local.query<{ xid: string }>('select pg_current_xact_id()::text as xid')).rows[0]!.xid,
      );
      const start = await store.headPosition();
      const e = wireEvent('Held', { run: runId });
      const appended = await store.appendToStream(`${runId}-b`, [e]);
      expect(txOf(appended.position)).toBeGreaterThan(localXid);
      expect(await seenWithin(start, e.id, 600), 'returned while an older transaction was open').toBe(false);
      await local.query('COMMIT');
      const t0 = Date.now();
      expect(await seenWithin(start, e.id, 1_000)).toBe(true);
      expect(Date.now() - t0).toBeLessThan(1_000);
    } finally {
      await local.query('ROLLBACK').catch(() => undefined);
      await disconnect(local);
    }
  }, 30_000);
});
