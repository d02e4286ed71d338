import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../testing/test-database.js';
import { queryRows } from '../db/database.js';
import type { RecordedEvent } from '../event-store/event-store.port.js';
import { SqlEventStore } from '../event-store/sql-event-store.js';
import { readCheckpoint } from './checkpoints.js';
import { asSubscription, type Subscription } from './subscription.js';
import { rowProjection } from './row-projection.js';
import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import { CatchUpTimeoutError, SubscriptionHost } from './subscription-host.js';
import { SubscriptionOperations } from './subscription-operations.js';

/**
 * A tally per stream, applied set-based (one upsert per batch). `fail(n)` makes an event fail: a thrown value, or a
 * function that decides per try.
 */
function tally(name: string, table: string, fail?: (n: number, stream: string) => Error | null): Subscription {
  return asSubscription({
    name,
    kind: 'projection',
    tables: [table],
    handles: ['Counted'],
    async apply(events: readonly RecordedEvent[], { tx }) {
      const counts = new Map<string, number>();
      for (const event of events) {
        const error = fail?.((event.data as { n: number }).n, event.streamId) ?? null;
        if (error) throw error;
        counts.set(event.streamId, (counts.get(event.streamId) ?? 0) + 1);
      }
      for (const [stream, n] of counts) {
        await tx.execute(
          sql.raw(`insert into ${table} (stream, n) values ('${stream}', ${n})
                   on conflict (stream) do update set n = ${table}.n + excluded.n`),
        );
      }
    },
  });
}

describe('subscriptions', () => {
  let t: TestDatabase;
  let store: SqlEventStore;
  const hosts: SubscriptionHost[] = [];
  let tableNo = 0;

  beforeAll(async () => {
    t = await createTestDatabase();
    store = new SqlEventStore(t.database);
  });
  afterEach(async () => {
    await Promise.all(hosts.splice(0).map((h) => h.stop()));
  });
  afterAll(async () => t?.dispose());

  async function newTable() {
    const name = `tally_${++tableNo}`;
    await t.database.db.execute(sql.raw(`create table ${name} (stream text primary key, n int not null)`));
    return name;
  }

  const count = async (table: string, stream: string) =>
    (await queryRows<{ n: number }>(t.database.db, sql.raw(`select n from ${table} where stream = '${stream}'`)))[0]
      ?.n ?? 0;

  async function appendCounts(stream: string, from: number, to: number) {
    for (let n = from; n < to; n++)
      await store.appendToStream(stream, [{ id: randomUUID(), type: 'Counted', data: { n } }]);
  }

  function host(subscriptions: Subscription[], options: ConstructorParameters<typeof SubscriptionHost>[3] = {}) {
    const h = new SubscriptionHost(t.database, store, subscriptions, {
      pollMs: 50,
      lockRetryMs: 50,
      retry: { attempts: 3, initialMs: 5 },
      ...options,
    });
    hosts.push(h);
    return h;
  }

  it('parks an event that keeps failing, moves past it, and never holds another subscription back', async () => {
    const [poisoned, healthy] = [await newTable(), await newTable()];
    const stream = `poison-${randomUUID()}`;
    let fixed = false;
    const failing = tally(`failing-${tableNo}`, poisoned, (n, s) =>
      s === stream && n === 3 && !fixed ? new Error('bad date 10000-01-01') : null,
    );
    const other = tally(`other-${tableNo}`, healthy);
    host([failing, other]).start();
    await appendCounts(stream, 0, 8);

    await expect.poll(() => count(healthy, stream), { timeout: 10_000 }).toBe(8);
    // Every event but the poisoned one, in the subscription that met it.
    await expect.poll(() => count(poisoned, stream), { timeout: 10_000 }).toBe(7);
    const operations = new SubscriptionOperations(t.database, store, () => [failing, other]);
    const [parked] = await operations.listParked();
    expect(parked).toMatchObject({ subscription: failing.name, event_type: 'Counted', status: 'parked', attempts: 3 });
    expect(parked!.error).toContain('bad date');
    const status = await operations.status();
    expect(status.subscriptions.find((s) => s.name === failing.name)).toMatchObject({ parked: 1, lag: 0 });
    expect(status.problems.join()).toMatch(/1 parked event/);

    // Still failing: the retry leaves it parked with the new error.
    expect((await operations.retry(parked!.id, 'test')).status).toBe('parked');
    fixed = true;
    const retried = await operations.retry(parked!.id, 'test');
    expect(retried).toMatchObject({ status: 'retried', resolved_by: 'test' });
    expect(await count(poisoned, stream)).toBe(8);
    expect((await operations.status()).parked).toBe(0);
  });

  it('skips a parked event on request, and answers a missing one as not found', async () => {
    const table = await newTable();
    const stream = `skip-${randomUUID()}`;
    const sub = tally(`skipping-${tableNo}`, table, (n, s) => (s === stream && n === 1 ? new Error('always') : null));
    host([sub]).start();
    await appendCounts(stream, 0, 3);
    const operations = new SubscriptionOperations(t.database, store, () => [sub]);
    await expect.poll(async () => (await operations.listParked()).length, { timeout: 10_000 }).toBe(1);
    const [parked] = await operations.listParked();
    expect((await operations.skip(parked!.id, 'admin-1')).status).toBe('skipped');
    expect(await operations.listParked()).toEqual([]);
    expect((await operations.listParked('skipped')).map((p) => p.id)).toEqual([parked!.id]);
    await expect(operations.retry(randomUUID(), 'x')).rejects.toThrow(/No parked event/);
  });

  it('retries a parked event of a row read model in turn: the row is folded afresh from its stream', async () => {
    const table = `latest_${++tableNo}`;
    await t.database.db.execute(sql.raw(`create table ${table} (stream text primary key, value int not null)`));
    const latest = pgTable(table, { stream: text('stream').primaryKey(), value: integer('value').notNull() });
    const stream = `latest-${randomUUID()}`;
    let broken = true;
    const sub = rowProjection<typeof latest, { type: 'Valued'; data: { v: number } }>({
      name: `latest-${tableNo}`,
      table: latest,
      key: 'stream',
      handles: ['Valued'],
      keyOf: () => stream,
      evolve: (_row, event) => {
        if (broken && event.data.v === 2) throw new Error('cannot take 2 yet');
        return { stream, value: event.data.v };
      },
    });
    // Only this test's stream: other tests' events are not for it.
    const scoped = {
      ...sub,
      apply: (events: readonly RecordedEvent[], ctx: Parameters<Subscription['apply']>[1]) =>
        sub.apply(
          events.filter((e) => e.streamId === stream),
          ctx,
        ),
    };
    const scopedSub = asSubscription({ ...scoped, repair: sub.repair });
    host([scopedSub]).start();
    for (const v of [1, 2, 3]) await store.appendToStream(stream, [{ id: randomUUID(), type: 'Valued', data: { v } }]);
    const value = async () =>
      (await queryRows<{ value: number }>(t.database.db, sql.raw(`select value from ${table}`)))[0]?.value;
    const operations = new SubscriptionOperations(t.database, store, () => [scopedSub]);
    await expect
      .poll(async () => (await operations.listParked()).filter((p) => p.subscription === scopedSub.name).length, {
        timeout: 10_000,
      })
      .toBe(1);
    await expect.poll(value, { timeout: 10_000 }).toBe(3);
    broken = false;
    const [parked] = (await operations.listParked()).filter((p) => p.subscription === scopedSub.name);
    expect((await operations.retry(parked!.id, 'op')).status).toBe('retried');
    // Applied as it is, the old event would have set 2 over the later 3.
    expect(await value()).toBe(3);
    await expect(operations.retry(parked!.id, 'op')).rejects.toThrow(/already retried or skipped/);
  });

  it('does not park an event over a failure of the database itself: it waits and tries again', async () => {
    const table = await newTable();
    const stream = `transient-${randomUUID()}`;
    let outages = 6;
    const sub = tally(`transient-${tableNo}`, table, (_n, s) =>
      s === stream && outages-- > 0
        ? Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })
        : null,
    );
    host([sub]).start();
    await appendCounts(stream, 0, 4);
    await expect.poll(() => count(table, stream), { timeout: 15_000 }).toBe(4);
    const parked = await new SubscriptionOperations(t.database, store, () => [sub]).listParked('all');
    expect(parked.filter((p) => p.subscription === sub.name)).toEqual([]);
  });

  it('wakes the subscriptions that read what was appended at once; the others move past it a moment later', async () => {
    const table = await newTable();
    const stream = `wake-${randomUUID()}`;
    const reader = tally(`wake-reader-${tableNo}`, table);
    const bystander = asSubscription({
      name: `wake-bystander-${tableNo}`,
      kind: 'projection',
      handles: ['SomethingElse'],
      apply: () => Promise.reject(new Error('given an event it does not read')),
    });
    // Polls far apart: only wake-ups can move them within the test's time.
    const h = host([reader, bystander], { pollMs: 60_000 });
    h.start();
    await expect.poll(() => h.active, { timeout: 5000 }).toBe(true);
    await appendCounts(stream, 0, 3);
    await expect.poll(() => count(table, stream), { timeout: 5000 }).toBe(3);
    const head = await store.headPosition();
    await expect.poll(() => readCheckpoint(t.database, bystander.name), { timeout: 5000 }).toBe(head);
    expect(
      await queryRows(t.database.db, sql`select 1 from parked_events where subscription = ${bystander.name}`),
    ).toEqual([]);
  });

  it('moves the subscriptions that read none of what was appended together, in one read of the feed', async () => {
    const stream = `together-${randomUUID()}`;
    const reader = tally(`together-reader-${tableNo}`, await newTable());
    const bystanders = Array.from({ length: 8 }, (_, i) =>
      asSubscription({
        name: `together-bystander-${tableNo}-${i}`,
        kind: 'projection',
        handles: [`Other${i}`],
        apply: () => Promise.resolve(),
      }),
    );
    let reads = 0;
    const counted = Object.create(store, {
      readFeedFor: {
        value: (...args: Parameters<SqlEventStore['readFeedFor']>) => (reads++, store.readFeedFor(...args)),
      },
    }) as SqlEventStore;
    const h = new SubscriptionHost(t.database, counted, [reader, ...bystanders], { pollMs: 60_000, lockRetryMs: 50 });
    hosts.push(h);
    h.start();
    await expect.poll(() => h.active, { timeout: 5000 }).toBe(true);
    // Each has read the feed once: the bystanders know where they stand.
    await expect.poll(() => reads, { timeout: 5000 }).toBeGreaterThanOrEqual(9);
    await new Promise((r) => setTimeout(r, 200));
    const before = reads;
    await appendCounts(stream, 0, 1);
    const head = await store.headPosition();
    for (const b of bystanders) {
      await expect.poll(() => readCheckpoint(t.database, b.name), { timeout: 5000 }).toBe(head);
    }
    // The reader's own step or two, and one read for all eight bystanders (not one each).
    expect(reads - before).toBeLessThanOrEqual(4);

    // A bystander that reads what comes next is woken to apply it; the others move on without it.
    await store.appendToStream(stream, [{ id: randomUUID(), type: 'Other3', data: {} }]);
    const next = await store.headPosition();
    for (const b of bystanders) {
      await expect.poll(() => readCheckpoint(t.database, b.name), { timeout: 5000 }).toBe(next);
    }
  });

  it('commits a batch and its checkpoint together, and applies each event once across restarts', async () => {
    const table = await newTable();
    const stream = `batch-${randomUUID()}`;
    const sub = tally(`batch-${tableNo}`, table);
    const first = host([sub], { batchSize: 4 });
    first.start();
    await appendCounts(stream, 0, 10);
    await expect.poll(() => count(table, stream), { timeout: 10_000 }).toBe(10);
    await first.stop();
    await appendCounts(stream, 10, 13);
    const second = host([sub], { batchSize: 4 });
    await second.drain({ names: [sub.name] });
    expect(await count(table, stream)).toBe(13);
    expect(await readCheckpoint(t.database, sub.name)).toBe(await store.headPosition());
  });

  it('lets one process run the subscriptions; the standby takes over when it stops', async () => {
    const table = await newTable();
    const stream = `standby-${randomUUID()}`;
    const sub = tally(`standby-${tableNo}`, table);
    const active = host([sub]);
    const standby = host([sub]);
    active.start();
    await expect.poll(() => active.active, { timeout: 5000 }).toBe(true);
    standby.start();
    await appendCounts(stream, 0, 5);
    await expect.poll(() => count(table, stream), { timeout: 10_000 }).toBe(5);
    expect(standby.active).toBe(false);
    await active.stop();
    await expect.poll(() => standby.active, { timeout: 5000 }).toBe(true);
    await appendCounts(stream, 5, 9);
    await expect.poll(() => count(table, stream), { timeout: 10_000 }).toBe(9);
  });

  it('rebuilds a read model live after a reset, while the host keeps running', async () => {
    const table = await newTable();
    const stream = `reset-${randomUUID()}`;
    const sub = tally(`reset-${tableNo}`, table);
    host([sub]).start();
    await appendCounts(stream, 0, 6);
    await expect.poll(() => count(table, stream), { timeout: 10_000 }).toBe(6);
    await new SubscriptionOperations(t.database, store, () => [sub]).reset([sub.name]);
    expect(await count(table, stream)).toBe(0);
    await expect.poll(() => count(table, stream), { timeout: 10_000 }).toBe(6);
  });

  it('gives up a catch-up at its deadline while an open transaction holds the feed back', async () => {
    const table = await newTable();
    const sub = tally(`deadline-${tableNo}`, table);
    const blocker = new pg.Client({ connectionString: t.url });
    await blocker.connect();
    try {
      await blocker.query('begin');
      await blocker.query('select pg_current_xact_id()');
      await appendCounts(`deadline-${randomUUID()}`, 0, 2);
      await expect(host([sub]).drain({ names: [sub.name], deadlineMs: 300 })).rejects.toBeInstanceOf(
        CatchUpTimeoutError,
      );
    } finally {
      await blocker.query('rollback').catch(() => undefined);
      await blocker.end();
    }
  });

  it('waits for a transaction that holds the feed back without reading again at every append, then catches up', async () => {
    const table = await newTable();
    const stream = `held-${randomUUID()}`;
    const subs = [tally(`held-a-${tableNo}`, table), tally(`held-b-${tableNo}`, `${table}_b`)];
    await t.database.db.execute(sql.raw(`create table ${table}_b (stream text primary key, n int not null)`));
    // Every read of the feed by the host (its subscriptions' and the watch's), counted.
    let reads = 0;
    const counted = Object.create(store, {
      readFeedFor: {
        value: (...args: Parameters<SqlEventStore['readFeedFor']>) => (reads++, store.readFeedFor(...args)),
      },
    }) as SqlEventStore;
    const h = new SubscriptionHost(t.database, counted, subs, { pollMs: 60_000, lockRetryMs: 50 });
    hosts.push(h);
    h.start();
    await expect.poll(() => h.active, { timeout: 5000 }).toBe(true);
    const blocker = new pg.Client({ connectionString: t.url });
    await blocker.connect();
    try {
      await blocker.query('begin');
      await blocker.query('select pg_current_xact_id()');
      await appendCounts(stream, 0, 1);
      await new Promise((r) => setTimeout(r, 100));
      const before = reads;
      // 40 appends, each waking both subscriptions, while the feed is held back: a few looks, not a read per wake-up.
      await appendCounts(stream, 1, 41);
      await new Promise((r) => setTimeout(r, 300));
      expect(reads - before).toBeLessThan(20);
      expect(await count(table, stream)).toBe(0);
    } finally {
      await blocker.query('rollback').catch(() => undefined);
      await blocker.end();
    }
    // The transaction ended: both catch up within a look or two, without a wake-up (the poll is a minute).
    await expect.poll(() => count(table, stream), { timeout: 1000, interval: 20 }).toBe(41);
    await expect.poll(() => count(`${table}_b`, stream), { timeout: 1000, interval: 20 }).toBe(41);
  });

  it('lives through losing its lock and listening connections: takes the lock again and keeps up', async () => {
    const table = await newTable();
    const stream = `heal-${randomUUID()}`;
    const sub = tally(`heal-${tableNo}`, table);
    // A long poll: only wake-ups (LISTEN) make the subscription quick.
    const h = host([sub], { pollMs: 60_000 });
    h.start();
    await expect.poll(() => h.active, { timeout: 5000 }).toBe(true);
    // Another connection pool appends, so only NOTIFY (not this store's in-process wake-up) reaches the host.
    const { openDatabase } = await import('../db/database.js');
    const other = await openDatabase({ url: t.url });
    const writer = new SqlEventStore(other);
    try {
      const appendOther = async (n: number) =>
        writer.appendToStream(stream, [{ id: randomUUID(), type: 'Counted', data: { n } }]);
      await appendOther(0);
      await expect.poll(() => count(table, stream), { timeout: 5000 }).toBe(1);

      const kill = async (application: string) => {
        const killed = await t.database.query<{ ok: boolean }>(
          `select pg_terminate_backend(pid) as ok from pg_stat_activity
             where application_name = $1 and datname = current_database()`,
          [application],
        );
        expect(killed.length).toBeGreaterThan(0);
      };
      await kill('seatlink-listen');
      await kill('seatlink-lock');
      await expect.poll(() => h.active, { timeout: 10_000 }).toBe(true);
      // The new listening connection is up again: appends from elsewhere wake the host within seconds, not a minute.
      await expect
        .poll(
          async () =>
            (
              await t.database.query<{ n: number }>(
                `select count(*)::int as n from pg_stat_activity
                   where application_name in ('seatlink-listen', 'seatlink-lock') and datname = current_database()`,
              )
            )[0]!.n,
          { timeout: 10_000 },
        )
        .toBe(2);
      await appendOther(1);
      await appendOther(2);
      await expect.poll(() => count(table, stream), { timeout: 8000 }).toBe(3);
    } finally {
      await other.close();
    }
  }, 30_000);
});
