import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database.js';
import { createTestDatabase, testBackends, testEnv, type TestDatabase } from '../../testing/test-database.js';
import { findClusterToolchain, runPgTool } from '../../testing/throwaway-cluster.js';
import { CLAIMS_STREAM_PREFIX, type RecordedEvent } from './event-store.port.js';
import { EventLogPartitionsJob } from './event-log-partitions.job.js';
import { SqlEventStore } from './sql-event-store.js';

/*
 * A month of claims past the retention is compacted (drizzle/0039, seatlink_compact_claims_month): its click events
 * become rows of events_compacted and the month's partition is detached, in one transaction. Every reader must see
 * exactly the events it saw before — the feed (whole and by type, in pages that cut the compacted rows anywhere),
 * each stream, and the in-database readers — so every read model rebuilt and every replay "as of" stays the same.
 */

const MONTH = '2025-01-01T00:00:00Z';
const MONTH_TABLE = 'events_claims_2025_01';

interface Seeded {
  clickStreams: string[];
  otherStreams: string[];
  clicks: number;
}

/** Clicks of three links over two hours of January 2025, interleaved in the feed with other streams' events. */
async function seedJanuary(database: Database, store: SqlEventStore): Promise<Seeded> {
  await database.query(`select seatlink_make_claim_partitions($1, $1)`, [MONTH]);
  const links = [randomUUID(), randomUUID(), randomUUID()];
  const clickStreams = links.map((id) => `${CLAIMS_STREAM_PREFIX}${id}`);
  const otherStreams: string[] = [];
  const positions = links.map(() => 0);
  let clicks = 0;
  for (let round = 0; round < 12; round++) {
    for (const [i, id] of links.entries()) {
      const n = positions[i]!;
      const at = new Date(Date.UTC(2025, 0, 10, 12 + (round >= 6 ? 1 : 0), round * 4 + i, 7, 123)).toISOString();
      // The names and devices a recipient gives, bidi and all; one click with metadata; the third link's data has a
      // field not every click has.
      const data: Record<string, unknown> = {
        distributionId: id,
        ticketId: `ticket-${i}`,
        userId: 'user-1',
        n: n + 1,
        at,
        ...(round % 3 === 0 ? { name: `\u202eAda ${round} \u05e9\u05dc\u05d5\u05dd`, device: `d-${round}` } : {}),
      };
      await database.query(
        `insert into events (epoch, stream_id, stream_position, event_id, type, data, metadata, created_at)
         values (0, $1, $2, $3, 'LinkClicked', $4::jsonb, $5::jsonb, $6::timestamptz)`,
        [
          clickStreams[i],
          n,
          randomUUID(),
          JSON.stringify(data),
          JSON.stringify(round === 5 && i === 0 ? { ip: '203.0.113.9' } : {}),
          `2025-01-10T${String(12 + (round >= 6 ? 1 : 0)).padStart(2, '0')}:${String(round * 4 + i).padStart(2, '0')}:07.123456Z`,
        ],
      );
      positions[i] = n + 1;
      clicks++;
    }
    const other = `audit-${randomUUID()}`;
    otherStreams.push(other);
    await store.appendToStream(other, [{ id: randomUUID(), type: 'Noted', data: { round } }]);
  }
  // A click whose data is not an object (kept as it is).
  await database.query(
    `insert into events (epoch, stream_id, stream_position, event_id, type, data, metadata, created_at)
     values (0, $1, $2, $3, 'LinkClicked', '[1, "two"]'::jsonb, '{}', '2025-01-20T08:00:00Z')`,
    [clickStreams[2], positions[2], randomUUID()],
  );
  clicks++;
  return { clickStreams, otherStreams, clicks };
}

/** The whole feed, read in pages of `size`. */
async function feed(store: SqlEventStore, size: number): Promise<RecordedEvent[]> {
  const out: RecordedEvent[] = [];
  let after: string | null = null;
  for (;;) {
    const page = await store.readAll(after, size);
    if (page.length === 0) return out;
    out.push(...page);
    after = page.at(-1)!.position;
  }
}

/** The feed as a reader of some types reads it, in pages of `size`. */
async function feedFor(store: SqlEventStore, types: string[], size: number): Promise<RecordedEvent[]> {
  const out: RecordedEvent[] = [];
  let after: string | null = null;
  for (;;) {
    const page = await store.readFeedFor(after, size, types);
    out.push(...page.events);
    if (!page.last || page.last === after) return out;
    after = page.last;
  }
}

interface Snapshot {
  whole: RecordedEvent[];
  inSevens: RecordedEvent[];
  clicksInFives: RecordedEvent[];
  streams: Record<string, RecordedEvent[]>;
  together: RecordedEvent[];
  inDatabase: unknown[];
}

async function snapshot(database: Database, store: SqlEventStore, seeded: Seeded): Promise<Snapshot> {
  const streams: Record<string, RecordedEvent[]> = {};
  for (const s of [...seeded.clickStreams, ...seeded.otherStreams]) streams[s] = (await store.readStream(s)).events;
  const together = [...(await store.readStreams(seeded.clickStreams)).values()].flatMap((r) => r.events);
  const inDatabase = await database.query(
    `select global_position::text, transaction_id::text, stream_id, stream_position, event_id, type, data, metadata,
            created_at, epoch
     from seatlink_read_feed_for(0, 0, 0, 100000, array['LinkClicked', 'Noted'])`,
  );
  return {
    whole: await feed(store, 1000),
    inSevens: await feed(store, 7),
    clicksInFives: await feedFor(store, ['LinkClicked'], 5),
    streams,
    together,
    inDatabase,
  };
}

describe.each(testBackends())('compacted claims on %s', (_name, embedded) => {
  let db: TestDatabase;
  let store: SqlEventStore;
  let seeded: Seeded;
  let before: Snapshot;

  beforeAll(async () => {
    db = await createTestDatabase({ embedded });
    store = new SqlEventStore(db.database);
    seeded = await seedJanuary(db.database, store);
    before = await snapshot(db.database, store, seeded);
  });
  afterAll(async () => {
    await store?.close();
    await db?.dispose();
  });

  it('leaves a month alone while a reader holds the log, and changes nothing', async () => {
    const reader = new pg.Client({ connectionString: db.url });
    await reader.connect();
    try {
      await reader.query('begin');
      await reader.query('select count(*) from events_claims');
      const [row] = await db.database.maintenance<{ n: string }>(
        'select seatlink_compact_claims_month($1)::text as n',
        [MONTH],
      );
      expect(row!.n).toBe('-1');
    } finally {
      await reader.query('rollback').catch(() => undefined);
      await reader.end();
    }
    const [left] = await db.database.query<{ n: number }>('select count(*)::int as n from events_compacted');
    expect(left!.n).toBe(0);
    expect(await snapshot(db.database, store, seeded)).toEqual(before);
  });

  it('gives every reader the same events after compacting, in far less room, the month detached', async () => {
    expect(before.clicksInFives).toHaveLength(seeded.clicks);
    const [{ bytes: rawBytes }] = (await db.database.query<{ bytes: string }>(
      `select pg_total_relation_size($1)::text as bytes`,
      [MONTH_TABLE],
    )) as [{ bytes: string }];
    // While claims of this month and other streams' appends go on.
    const claimsNow = `${CLAIMS_STREAM_PREFIX}${randomUUID()}`;
    const writes = Array.from({ length: 8 }, async (_, w) => {
      for (let n = 0; n < 10; n++) {
        await db.database.query(
          `insert into events_claims (epoch, stream_id, stream_position, event_id, type, data, metadata)
           values (0, $1, $2, gen_random_uuid(), 'LinkClicked', '{}', '{}')`,
          [claimsNow, w * 10 + n],
        );
      }
    });
    const [row] = await db.database.maintenance<{ n: string }>('select seatlink_compact_claims_month($1)::text as n', [
      MONTH,
    ]);
    await Promise.all(writes);
    expect(Number(row!.n)).toBe(seeded.clicks);
    expect((await store.readStream(claimsNow)).revision).toBe(79);

    const attached = await db.database.query(
      `select 1 from pg_inherits where inhrelid = to_regclass($1) and inhparent = 'events_claims'::regclass`,
      [MONTH_TABLE],
    );
    expect(attached).toHaveLength(0);
    // The detached month is still there, whole, for the archive.
    const [kept] = await db.database.query<{ n: number }>(`select count(*)::int as n from ${MONTH_TABLE}`);
    expect(kept!.n).toBe(seeded.clicks);

    const after = await snapshot(db.database, store, seeded);
    const withoutNow = (events: RecordedEvent[]) => events.filter((e) => e.streamId !== claimsNow);
    expect(withoutNow(after.whole)).toEqual(before.whole);
    expect(withoutNow(after.inSevens)).toEqual(before.inSevens);
    expect(withoutNow(after.clicksInFives)).toEqual(before.clicksInFives);
    expect(after.streams).toEqual(before.streams);
    expect(after.together).toEqual(before.together);
    expect((after.inDatabase as Array<{ stream_id: string }>).filter((r) => r.stream_id !== claimsNow)).toEqual(
      before.inDatabase,
    );

    const [{ bytes: compactBytes }] = (await db.database.query<{ bytes: string }>(
      `select sum(pg_column_size(c.*))::text as bytes from events_compacted c`,
    )) as [{ bytes: string }];
    console.log(
      `compacted ${seeded.clicks} clicks: ${rawBytes} bytes as a month (rows and keys), ${compactBytes} compacted ` +
        `(${Math.round(Number(rawBytes) / seeded.clicks)} → ${Math.round(Number(compactBytes) / seeded.clicks)} bytes a click)`,
    );
    expect(Number(compactBytes)).toBeLessThan(Number(rawBytes) / 2);

    // Compacting it again does nothing.
    const [again] = await db.database.query<{ n: string }>('select seatlink_compact_claims_month($1)::text as n', [
      MONTH,
    ]);
    expect(again!.n).toBe('0');
  });

  it('appends to a compacted click stream after its last position, and refuses a position it holds', async () => {
    const stream = seeded.clickStreams[0]!;
    const { revision } = await store.readStream(stream);
    expect(revision).toBe(11);
    await expect(
      store.appendToStream(stream, [{ id: randomUUID(), type: 'LinkClicked', data: {} }], { expectedRevision: 5 }),
    ).rejects.toThrow(/expected/i);
    const appended = await store.appendToStream(stream, [{ id: randomUUID(), type: 'LinkClicked', data: {} }], {
      expectedRevision: 11,
    });
    expect(appended.nextRevision).toBe(12);
  });
});

describe('a compaction cut off half-way', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => db?.dispose());

  it('leaves the month as it was when its connection is killed mid-way, and the next run compacts it', async () => {
    const month = '2024-06-01T00:00:00Z';
    await db.database.query(`select seatlink_make_claim_partitions($1, $1)`, [month]);
    // 60,000 clicks of 200 links over the month: enough for the compaction to be under way when it is cut.
    await db.database.query(
      `insert into events (epoch, stream_id, stream_position, event_id, type, data, metadata, created_at)
       select 0, 'link-clicks-' || (g % 200), g / 200, gen_random_uuid(), 'LinkClicked',
              jsonb_build_object('distributionId', 'd' || (g % 200), 'n', g / 200 + 1), '{}',
              '2024-06-01T00:00:00Z'::timestamptz + make_interval(secs => g * 40)
       from generate_series(0, 59999) as g`,
    );
    const before = await db.database.query<{ n: number }>(
      `select count(*)::int as n from events where starts_with(stream_id, 'link-clicks-')`,
    );
    const running = db.database.maintenance('select seatlink_compact_claims_month($1)', [month]);
    const outcome = running.then(
      () => 'finished',
      (err: unknown) => `failed: ${String(err)}`,
    );
    let killed = false;
    for (let i = 0; i < 400 && !killed; i++) {
      const [row] = await db.database.query<{ n: number }>(
        `select count(pg_terminate_backend(pid))::int as n from pg_stat_activity
         where application_name = 'seatlink-maintenance' and state = 'active' and datname = current_database()`,
      );
      killed = row!.n > 0;
      if (!killed) await new Promise((r) => setTimeout(r, 5));
    }
    expect(killed).toBe(true);
    expect(await outcome).toMatch(/^failed/);
    const [compacted] = await db.database.query<{ n: number }>('select count(*)::int as n from events_compacted');
    expect(compacted!.n).toBe(0);
    expect(
      await db.database.query<{ n: number }>(
        `select count(*)::int as n from events where starts_with(stream_id, 'link-clicks-')`,
      ),
    ).toEqual(before);

    const [again] = await db.database.maintenance<{ n: string }>(
      'select seatlink_compact_claims_month($1)::text as n',
      [month],
    );
    expect(again!.n).toBe('60000');
    const store = new SqlEventStore(db.database);
    try {
      const stream = await store.readStream('link-clicks-7');
      expect(stream.events.map((e) => (e.data as { n: number }).n)).toEqual(
        Array.from({ length: 300 }, (_, i) => i + 1),
      );
    } finally {
      await store.close();
    }
  });
});

describe('the event log job', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => db?.dispose());

  it('compacts the months that ended the retention ago by the database clock, none younger', async () => {
    const store = new SqlEventStore(db.database);
    try {
      // A month long gone, and last month (younger than a retention of 45 days, whatever today is).
      await seedJanuary(db.database, store);
      const [{ last }] = (await db.database.query<{ last: string }>(
        `select to_char(date_trunc('month', now() at time zone 'UTC') - interval '1 month', 'YYYY-MM-DD') as last`,
      )) as [{ last: string }];
      await db.database.query(`select seatlink_make_claim_partitions($1::timestamptz, $1::timestamptz)`, [
        `${last}T00:00:00Z`,
      ]);
      const months = async () =>
        (
          await db.database.query<{ name: string }>(
            `select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
             where i.inhparent = 'events_claims'::regclass order by 1`,
          )
        ).map((m) => m.name);
      // Off (0, the default): nothing is compacted.
      await new EventLogPartitionsJob(db.database, { EVENT_LOG_COMPACT_AFTER_DAYS: 0 }).run();
      expect(await months()).toContain(MONTH_TABLE);
      await new EventLogPartitionsJob(db.database, { EVENT_LOG_COMPACT_AFTER_DAYS: 45 }).run();
      expect(await months()).not.toContain(MONTH_TABLE);
      expect(await months()).toContain(`events_claims_${last.slice(0, 7).replace('-', '_')}`);
      // The detached month is archived with pg_dump, whole (on the server of DATABASE_URL: the embedded one is newer
      // than this machine's pg_dump).
      const toolchain = findClusterToolchain(['pg_dump']);
      if (testEnv.databaseUrl !== testEnv.embeddedUrl && !('missing' in toolchain)) {
        const dump = await runPgTool(toolchain, 'pg_dump', ['--data-only', '-t', MONTH_TABLE, db.url]);
        // COPY's text format: one line per row, its columns between tabs.
        expect(dump.split('\n').filter((line) => line.includes('\tLinkClicked\t'))).toHaveLength(37);
      }
    } finally {
      await store.close();
    }
  });
});
