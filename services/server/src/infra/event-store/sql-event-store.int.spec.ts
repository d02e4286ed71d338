import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../db/database.js';
import { createTestDatabase, testBackends } from '../../testing/test-database.js';
import { eventStoreContract } from './event-store.contract.js';
import { DuplicateEventIdError, InvalidEventDataError, WrongExpectedRevisionError } from './event-store.port.js';
import { SqlEventStore } from './sql-event-store.js';

// On the PostgreSQL of the run (DATABASE_URL) and on the embedded server, the default of `npm start`.
for (const [name, embedded] of testBackends()) {
  eventStoreContract(`SQL adapter on ${name}`, async () => {
    const t = await createTestDatabase({ embedded });
    return { store: new SqlEventStore(t.database), dispose: t.dispose };
  });
}

describe('SQL adapter: an append is whole or nothing', () => {
  it('inserts none of its events when another append holds part of its positions', async () => {
    const t = await createTestDatabase();
    try {
      const store = new SqlEventStore(t.database);
      const stream = `partial-${randomUUID()}`;
      await store.appendToStream(stream, [{ id: randomUUID(), type: 'A', data: {} }], {
        expectedRevision: 'no_stream',
      });
      // Position 2 taken under this append's feet (as by an append in flight that commits first).
      await t.database.query(
        `insert into events (stream_id, stream_position, event_id, type, data, metadata)
         values ($1, 2, $2, 'Other', '{}', '{}')`,
        [stream, randomUUID()],
      );
      const refused = await store
        .appendToStream(
          stream,
          [
            { id: randomUUID(), type: 'B', data: {} },
            { id: randomUUID(), type: 'C', data: {} },
          ],
          { expectedRevision: 0 },
        )
        .catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(WrongExpectedRevisionError);
      const types = (await store.readStream(stream)).events.map((e) => e.type);
      expect(types).toEqual(['A', 'Other']);
    } finally {
      await t.dispose();
    }
  });

  it('writes nothing to any stream of an append to several when one of them moved or an event id is taken', async () => {
    const t = await createTestDatabase();
    try {
      const store = new SqlEventStore(t.database);
      const ev = (type: string) => ({ id: randomUUID(), type, data: {} });
      const [a, b, c] = ['a', 'b', 'c'].map((s) => `several-${s}-${randomUUID()}`) as [string, string, string];
      await store.appendToStream(b, [ev('B')], { expectedRevision: 'no_stream' });
      const moved = await store
        .appendToStreams([
          { streamId: a, events: [ev('A')], expectedRevision: 'no_stream' },
          { streamId: b, events: [ev('B2')], expectedRevision: 'no_stream' },
          { streamId: c, events: [ev('C')], expectedRevision: 'no_stream' },
        ])
        .catch((e: unknown) => e);
      expect(moved).toBeInstanceOf(WrongExpectedRevisionError);
      expect(moved).toMatchObject({ streamId: b, actual: 0 });
      const taken = ev('Taken');
      await store.appendToStream(`other-${randomUUID()}`, [taken]);
      const duplicate = await store
        .appendToStreams([
          { streamId: a, events: [ev('A')], expectedRevision: 'no_stream' },
          { streamId: c, events: [{ ...taken }], expectedRevision: 'no_stream' },
        ])
        .catch((e: unknown) => e);
      expect(duplicate).toBeInstanceOf(DuplicateEventIdError);
      const read = await store.readStreams([a, b, c]);
      expect([read.get(a)!.revision, read.get(b)!.revision, read.get(c)!.revision]).toEqual([-1, 0, -1]);
    } finally {
      await t.dispose();
    }
  });
});

/**
 * A reaction appends through the store bound to its transaction: the append joins the transaction, so it commits or
 * rolls back with the rest of the reaction's work.
 */
function withinTransactionSuite(
  name: string,
  open: () => Promise<{ database: Database; dispose: () => Promise<void> }>,
) {
  describe(`SQL adapter on ${name}: an append inside a transaction`, () => {
    it('commits with the transaction, wakes listeners only after the commit, and survives a refused append', async () => {
      const { database, dispose } = await open();
      try {
        const store = new SqlEventStore(database);
        let woken = 0;
        const stop = await store.onAppended(() => woken++);
        const stream = `within-${randomUUID()}`;
        const repeatId = randomUUID();
        const after: Array<() => void> = [];
        await database.db.transaction(async (tx) => {
          const bound = store.withinTransaction(tx, (work) => after.push(work));
          await bound.appendToStream(stream, [{ id: repeatId, type: 'A', data: { n: 1 } }], {
            expectedRevision: 'no_stream',
          });
          // Seen inside the transaction, not outside it yet.
          expect((await bound.readStream(stream)).revision).toBe(0);
          // A refused append (a stale revision) rolls back its savepoint only: the transaction goes on.
          await expect(
            bound.appendToStream(stream, [{ id: randomUUID(), type: 'B', data: {} }], {
              expectedRevision: 'no_stream',
            }),
          ).rejects.toBeInstanceOf(WrongExpectedRevisionError);
          // The same event again is a repeat, answered from the first append.
          const repeat = await bound.appendToStream(stream, [{ id: repeatId, type: 'A', data: { n: 1 } }], {
            expectedRevision: 'no_stream',
          });
          expect(repeat.repeated).toBe(true);
          await bound.appendToStream(stream, [{ id: randomUUID(), type: 'C', data: {} }], { expectedRevision: 0 });
          expect(woken).toBe(0);
        });
        expect(after.length).toBeGreaterThan(0);
        for (const work of after) work();
        expect(woken).toBeGreaterThan(0);
        expect((await store.readStream(stream)).events.map((e) => e.type)).toEqual(['A', 'C']);
        await stop();
      } finally {
        await dispose();
      }
    });

    it('refuses a taken event id or data it cannot store as outside a transaction, and the transaction goes on', async () => {
      const { database, dispose } = await open();
      try {
        const store = new SqlEventStore(database);
        const id = randomUUID();
        await store.appendToStream(`taken-${id}`, [{ id, type: 'A', data: {} }]);
        await database.db.transaction(async (tx) => {
          const bound = store.withinTransaction(tx, () => undefined);
          await expect(bound.appendToStream(`other-${id}`, [{ id, type: 'A', data: {} }])).rejects.toBeInstanceOf(
            DuplicateEventIdError,
          );
          await expect(
            bound.appendToStream(`nul-${id}`, [{ id: randomUUID(), type: 'A', data: { s: 'a\u0000b' } }]),
          ).rejects.toBeInstanceOf(InvalidEventDataError);
          await bound.appendToStream(`after-${id}`, [{ id: randomUUID(), type: 'B', data: {} }]);
        });
        expect((await store.readStream(`after-${id}`)).revision).toBe(0);
        expect((await store.readStream(`other-${id}`)).revision).toBe(-1);
        expect((await store.readStream(`nul-${id}`)).revision).toBe(-1);
      } finally {
        await dispose();
      }
    });

    it('appends nothing when the transaction rolls back', async () => {
      const { database, dispose } = await open();
      try {
        const store = new SqlEventStore(database);
        const stream = `within-rollback-${randomUUID()}`;
        const failed = await database.db
          .transaction(async (tx) => {
            await store
              .withinTransaction(tx, () => undefined)
              .appendToStream(stream, [{ id: randomUUID(), type: 'A', data: {} }]);
            throw new Error('a later step failed');
          })
          .catch((e: unknown) => e);
        expect(failed).toBeInstanceOf(Error);
        expect((await store.readStream(stream)).revision).toBe(-1);
        expect(await store.headPosition()).toBeNull();
      } finally {
        await dispose();
      }
    });
  });
}

describe('SQL adapter: wake-ups name what was appended', () => {
  it('tells listeners here and in another process the types appended (coalesced NOTIFYs too)', async () => {
    const t = await createTestDatabase();
    const other = await openDatabase({ url: t.url });
    try {
      const here = new SqlEventStore(t.database);
      const there = new SqlEventStore(other);
      const local: Array<string[] | null> = [];
      const remote: Array<string[] | null> = [];
      const stopLocal = await here.onAppended((types) => local.push(types && [...types].sort()));
      const stopRemote = await there.onAppended((types) => remote.push(types && [...types].sort()));
      const stream = `wake-${randomUUID()}`;
      await here.appendToStream(stream, [
        { id: randomUUID(), type: 'Alpha', data: {} },
        { id: randomUUID(), type: 'Beta', data: {} },
      ]);
      // Within the NOTIFY window: shares the next NOTIFY with the one after it.
      await here.appendToStream(stream, [{ id: randomUUID(), type: 'Gamma', data: {} }]);
      await here.recordAtPositions([
        { streamId: `wake-clicks-${randomUUID()}`, revision: 0, id: randomUUID(), type: 'Delta', data: {} },
      ]);
      // At once, one call per append.
      expect(local[0]).toEqual(['Alpha', 'Beta']);
      expect(local).toContainEqual(['Gamma']);
      expect(local).toContainEqual(['Delta']);
      await expect
        .poll(() => remote.flatMap((types) => types ?? ['(any)']).sort(), { timeout: 5000 })
        .toEqual(['Alpha', 'Beta', 'Delta', 'Gamma']);
      expect(remote[0]).toEqual(['Alpha', 'Beta']);
      // Here, each append woke the listener once: its own NOTIFYs, which reached it too, did not wake it again.
      expect(local).toEqual([['Alpha', 'Beta'], ['Gamma'], ['Delta']]);
      // Another store on the same database object is woken by these appends at once too.
      const beside: Array<string[] | null> = [];
      const stopBeside = await new SqlEventStore(t.database).onAppended((types) => beside.push(types && [...types]));
      await here.appendToStream(stream, [{ id: randomUUID(), type: 'Epsilon', data: {} }]);
      expect(beside).toEqual([['Epsilon']]);
      await stopBeside();
      await stopLocal();
      await stopRemote();
    } finally {
      await other.close();
      await t.dispose();
    }
  });
});

for (const [name, embedded] of testBackends()) withinTransactionSuite(name, () => createTestDatabase({ embedded }));

describe(`SQL adapter: a reader of some types passes the others without reading them`, () => {
  it('answers a reader of a rare type its events and the end of the feed in one read, past thousands of others', async () => {
    const t = await createTestDatabase();
    const store = new SqlEventStore(t.database);
    try {
      const start = await store.headPosition();
      const noise = (n: number) =>
        Array.from({ length: n }, (_, i) => ({ id: randomUUID(), type: 'Noise', data: { i } }));
      await store.appendToStream(`noise-${randomUUID()}`, noise(1500));
      const rare = { id: randomUUID(), type: 'Rare', data: { n: 1 } };
      await store.appendToStream(`rare-${randomUUID()}`, [rare]);
      await store.appendToStream(`noise-${randomUUID()}`, noise(1500));
      const head = await store.headPosition();

      const page = await store.readFeedFor(start, 500, ['Rare', 'Rare', 'Unheard']);
      expect(page.events.map((e) => e.id)).toEqual([rare.id]);
      expect(page.more).toBe(false);
      expect(page.last).toBe(head);
      // Full pages: the last event read is where the next page starts; nothing is skipped between pages.
      const noisy = await store.readFeedFor(start, 1000, ['Noise']);
      expect(noisy.events).toHaveLength(1000);
      expect(noisy.more).toBe(true);
      expect(noisy.last).toBe(noisy.events.at(-1)!.position);
      const rest = await store.readFeedFor(noisy.last, 5000, ['Noise', 'Rare']);
      expect(rest.events).toHaveLength(2001);
      expect(rest.events[500]!.id).toBe(rare.id);
      expect(rest.last).toBe(head);
      // At the end: nothing.
      expect(await store.readFeedFor(head, 500, ['Rare'])).toEqual({ events: [], more: false, last: null });
    } finally {
      await t.dispose();
    }
  });
});
