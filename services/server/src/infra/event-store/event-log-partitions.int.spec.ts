import { randomUUID } from 'node:crypto';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../db/database.js';
import { MODULE_ROUTINES } from '../../routines.js';
import {
  createScratchDatabase,
  createTestDatabase,
  testBackends,
  testEnv,
  type TestDatabase,
} from '../../testing/test-database.js';
import { CLAIM_MONTHS_AHEAD } from './event-store.routines.js';
import { CLAIMS_STREAM_PREFIX, WrongExpectedRevisionError } from './event-store.port.js';
import { SqlEventStore } from './sql-event-store.js';

/*
 * The event log is partitioned (drizzle/0038): a link's clicks in monthly partitions of their own, every other stream
 * in events_main. These tests look at where rows land, what a month made late does with the rows the default took,
 * that making months does not stop appends, and that a database migrated from before keeps every event where the feed
 * had it.
 */

const MIGRATIONS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../drizzle');

/** The partition each event of a stream is in. */
async function partitionsOf(database: Database, streamId: string): Promise<string[]> {
  const rows = await database.query<{ part: string }>(
    'select tableoid::regclass::text as part from events where stream_id = $1 order by stream_position',
    [streamId],
  );
  return rows.map((r) => r.part);
}

const monthName = (d: Date) => `events_claims_${d.getUTCFullYear()}_${String(d.getUTCMonth() + 1).padStart(2, '0')}`;

/** Inserts click events as a claim does (positions held by the caller), at the database's time or the given one. */
async function recordClicks(database: Database, streamId: string, from: number, count: number, at?: string) {
  await database.query(
    `insert into events (epoch, stream_id, stream_position, event_id, type, data, metadata, created_at)
     select 0, $1, $2 + g.i - 1, gen_random_uuid(), 'LinkClicked', jsonb_build_object('n', $2 + g.i), '{}',
            coalesce($4::timestamptz, now())
     from generate_series(1, $3::integer) as g(i)
     on conflict do nothing`,
    [streamId, from, count, at ?? null],
  );
}

describe.each(testBackends())('event log partitions on %s', (_name, embedded) => {
  let db: TestDatabase;
  let store: SqlEventStore;

  afterAll(async () => {
    await store?.close();
    await db?.dispose();
  });

  it('keeps a link’s clicks in the month they were made and every other stream in events_main', async () => {
    db = await createTestDatabase({ embedded });
    store = new SqlEventStore(db.database);
    const [{ now }] = (await db.database.query<{ now: Date }>('select now() as now')) as [{ now: Date }];
    const clicks = `${CLAIMS_STREAM_PREFIX}${randomUUID()}`;
    const other = `link-opens-${randomUUID()}`;
    await recordClicks(db.database, clicks, 0, 3);
    await store.appendToStream(other, [{ id: randomUUID(), type: 'LinkOpened', data: {} }]);
    expect(await partitionsOf(db.database, clicks)).toEqual(Array(3).fill(monthName(now)));
    expect(await partitionsOf(db.database, other)).toEqual(['events_main']);
    // The months ahead are made at start: this one and CLAIM_MONTHS_AHEAD more.
    const months = await db.database.query<{ name: string }>(
      `select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
       where i.inhparent = 'events_claims'::regclass and c.relname <> 'events_claims_default' order by 1`,
    );
    const ahead = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + CLAIM_MONTHS_AHEAD, 1));
    expect(months.map((m) => m.name)).toContain(monthName(ahead));
    expect(months.map((m) => m.name)).toContain(monthName(now));
  });

  it('reads and appends a click stream through the store as any other, its positions still unique', async () => {
    const clicks = `${CLAIMS_STREAM_PREFIX}${randomUUID()}`;
    await recordClicks(db.database, clicks, 0, 2);
    const read = await store.readStream(clicks);
    expect(read.revision).toBe(1);
    await store.appendToStream(clicks, [{ id: randomUUID(), type: 'LinkClicked', data: { n: 3 } }], {
      expectedRevision: 1,
    });
    await expect(
      store.appendToStream(clicks, [{ id: randomUUID(), type: 'LinkClicked', data: { n: 3 } }], {
        expectedRevision: 1,
      }),
    ).rejects.toBeInstanceOf(WrongExpectedRevisionError);
    // A claim that records at a position already taken records nothing (the month's key).
    await recordClicks(db.database, clicks, 2, 1);
    expect((await store.readStream(clicks)).events.map((e) => (e.data as { n: number }).n)).toEqual([1, 2, 3]);
  });

  it('appends to a click stream and another stream at once, all or nothing', async () => {
    const clicks = `${CLAIMS_STREAM_PREFIX}${randomUUID()}`;
    const other = `batch-${randomUUID()}`;
    const event = (n: number) => ({ id: randomUUID(), type: 'LinkClicked', data: { n } });
    await store.appendToStreams([
      { streamId: clicks, expectedRevision: 'no_stream', events: [event(1), event(2)] },
      { streamId: other, expectedRevision: 'no_stream', events: [event(1)] },
    ]);
    expect(await partitionsOf(db.database, other)).toEqual(['events_main']);
    expect((await partitionsOf(db.database, clicks)).every((p) => p.startsWith('events_claims_'))).toBe(true);
    // The click stream moved meanwhile: neither stream takes anything.
    await expect(
      store.appendToStreams([
        { streamId: other, expectedRevision: 0, events: [event(2)] },
        { streamId: clicks, expectedRevision: 0, events: [event(3)] },
      ]),
    ).rejects.toBeInstanceOf(WrongExpectedRevisionError);
    expect((await store.readStream(other)).revision).toBe(0);
    expect((await store.readStream(clicks)).revision).toBe(1);
  });

  it('gives a month made late the clicks the default partition took for it, in the feed where they were', async () => {
    const clicks = `${CLAIMS_STREAM_PREFIX}${randomUUID()}`;
    // Far ahead: no month is made for it yet, so the default partition takes them.
    await recordClicks(db.database, clicks, 0, 4, '2031-03-15T10:00:00Z');
    expect(await partitionsOf(db.database, clicks)).toEqual(Array(4).fill('events_claims_default'));
    const before = await feedOf(store);
    const [made] = await db.database.query<{ made: number }>(
      `select seatlink_make_claim_partitions('2031-03-01T00:00:00Z', '2031-03-31T00:00:00Z') as made`,
    );
    expect(made!.made).toBe(1);
    expect(await partitionsOf(db.database, clicks)).toEqual(Array(4).fill('events_claims_2031_03'));
    expect(await feedOf(store)).toEqual(before);
    // Made once: asking again makes nothing.
    const [again] = await db.database.query<{ made: number }>(
      `select seatlink_make_claim_partitions('2031-03-01T00:00:00Z', '2031-03-31T00:00:00Z') as made`,
    );
    expect(again!.made).toBe(0);
  });

  it('lets makers that meet (a start and the job) make each month once, without an error', async () => {
    const makers = await Promise.all(
      Array.from({ length: 6 }, () =>
        db.database.query<{ made: number }>(
          `select seatlink_make_claim_partitions('2050-01-01T00:00:00Z', '2050-06-01T00:00:00Z') as made`,
        ),
      ),
    );
    const made = makers.reduce((n, [row]) => n + row!.made, 0);
    // Those that met one under way made nothing; asking again makes what they left.
    const [again] = await db.database.query<{ made: number }>(
      `select seatlink_make_claim_partitions('2050-01-01T00:00:00Z', '2050-06-01T00:00:00Z') as made`,
    );
    expect(made + again!.made).toBe(6);
    const [after] = await db.database.query<{ made: number }>(
      `select seatlink_make_claim_partitions('2050-01-01T00:00:00Z', '2050-06-01T00:00:00Z') as made`,
    );
    expect(after!.made).toBe(0);
  });

  it('makes months while 16 writers append and record clicks: every write lands and each month is made', async () => {
    const streams = Array.from({ length: 16 }, (_, i) =>
      i % 2 ? `${CLAIMS_STREAM_PREFIX}${randomUUID()}` : `burst-${randomUUID()}`,
    );
    const writes = streams.map(async (stream) => {
      for (let n = 0; n < 25; n++) {
        if (stream.startsWith(CLAIMS_STREAM_PREFIX)) await recordClicks(db.database, stream, n, 1);
        else await store.appendToStream(stream, [{ id: randomUUID(), type: 'Burst', data: { n } }]);
      }
    });
    const making = (async () => {
      let made = 0;
      for (let year = 2040; year < 2043; year++) {
        const [row] = await db.database.query<{ made: number }>(
          `select seatlink_make_claim_partitions($1::timestamptz, $2::timestamptz) as made`,
          [`${year}-01-01T00:00:00Z`, `${year}-12-01T00:00:00Z`],
        );
        made += row!.made;
      }
      return made;
    })();
    await Promise.all(writes);
    expect(await making).toBe(36);
    for (const stream of streams) expect((await store.readStream(stream)).revision).toBe(24);
  });
});

/** Every event of the feed, in feed order: (stream, position, event id, feed position). */
async function feedOf(store: SqlEventStore): Promise<string[]> {
  const out: string[] = [];
  let after: string | null = null;
  for (;;) {
    const page = await store.readAll(after, 1000);
    if (page.length === 0) return out;
    for (const e of page) out.push(`${e.streamId}#${e.revision} ${e.id} ${e.position}`);
    after = page.at(-1)!.position;
  }
}

describe('a database made before the log was partitioned', () => {
  const cleanup: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const step of cleanup.reverse()) await step().catch(() => undefined);
  });

  it('keeps every event, in the same feed order, the clicks moved to their months', async () => {
    // The migrations up to the one before partitioning, as a database made by the earlier version has them.
    const folder = await mkdtemp(path.join(os.tmpdir(), 'seatlink-migrations-'));
    cleanup.push(() => rm(folder, { recursive: true, force: true }));
    await cp(MIGRATIONS, folder, { recursive: true });
    const journalPath = path.join(folder, 'meta', '_journal.json');
    const journal = JSON.parse(await readFile(journalPath, 'utf8')) as { entries: Array<{ tag: string }> };
    const at = journal.entries.findIndex((e) => e.tag === '0038_events_partitioned');
    expect(at).toBeGreaterThan(0);
    journal.entries = journal.entries.slice(0, at);
    await writeFile(journalPath, JSON.stringify(journal));

    const scratch = await createScratchDatabase(testEnv.databaseUrl);
    cleanup.push(() => scratch.drop());
    const client = new pg.Client({ connectionString: scratch.url });
    await client.connect();
    try {
      await migrate(drizzle(client), { migrationsFolder: folder });
      // Events in several transactions: other streams, clicks of this month and of a month long gone.
      for (let t = 0; t < 5; t++) {
        await client.query(
          `insert into events (stream_id, stream_position, event_id, type, data, metadata, created_at)
           select s.stream_id, s.n, gen_random_uuid(), s.type, jsonb_build_object('t', $1::integer), '{}', s.at
           from (values ('user-a', 'Registered', now()), ('link-clicks-x', 'LinkClicked', now()),
                        ('link-clicks-y', 'LinkClicked', '2025-02-10T12:00:00Z'::timestamptz)) as v(stream_id, type, at)
           cross join lateral (select v.stream_id, v.type, v.at, $1::integer as n) as s`,
          [t],
        );
      }
      const rows = await client.query<{ row: string }>(
        `select stream_id || '#' || stream_position || ' ' || event_id || ' ' || transaction_id || ':' ||
                global_position as row
         from events order by epoch, transaction_id, global_position`,
      );
      const before = rows.rows.map((r) => r.row);
      expect(before).toHaveLength(15);

      const database = await openDatabase({ url: scratch.url, poolSize: 4, routines: MODULE_ROUTINES });
      cleanup.push(() => database.close());
      await database.migrate();
      const after = await database.query<{ row: string; part: string }>(
        `select stream_id || '#' || stream_position || ' ' || event_id || ' ' || transaction_id || ':' ||
                global_position as row, tableoid::regclass::text as part
         from events order by epoch, transaction_id, global_position`,
      );
      expect(after.map((r) => r.row)).toEqual(before);
      const partOf = (stream: string) =>
        new Set(after.filter((r) => r.row.startsWith(`${stream}#`)).map((r) => r.part));
      expect(partOf('user-a')).toEqual(new Set(['events_main']));
      expect(partOf('link-clicks-y')).toEqual(new Set(['events_claims_2025_02']));
      expect(partOf('link-clicks-x').has('events_claims_default')).toBe(false);
      // The store reads and appends on the migrated log: the stream goes on after its last position.
      const store = new SqlEventStore(database);
      cleanup.push(() => store.close());
      await store.appendToStream('user-a', [{ id: randomUUID(), type: 'Registered', data: {} }], {
        expectedRevision: 4,
      });
      expect((await store.readStream('link-clicks-y')).revision).toBe(4);
      expect((await feedOf(store)).length).toBe(16);
    } finally {
      await client.end();
    }
  });
});
