import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EventStore, type NewEvent, type RecordedEvent, WrongExpectedRevisionError } from './event-store.port.js';

export interface ContractSubject {
  store: EventStore;
  dispose(): Promise<void>;
}

const ev = (type: string, data: unknown = {}): NewEvent => ({ id: randomUUID(), type, data });
const stream = (prefix: string) => `${prefix}-${randomUUID()}`;

/**
 * Reads the feed after `from`, in batches, up to the head as it was at the call. (An empty page is not the end:
 * another transaction still open on the server may hold newer events back for a moment.)
 */
async function readFeed(store: EventStore, from: string | null, batch = 100): Promise<RecordedEvent[]> {
  const head = await store.headPosition();
  const all: RecordedEvent[] = [];
  let after = from;
  while (head !== null && (after === null || store.comparePositions(after, head) < 0)) {
    const page = await store.readAll(after, batch);
    all.push(...page);
    if (page.length > 0) after = page[page.length - 1]!.position;
    else await new Promise((r) => setTimeout(r, 5));
  }
  return all;
}

/** The behaviour every event-store adapter must show. */
export function eventStoreContract(name: string, open: () => Promise<ContractSubject>) {
  describe(`event store contract: ${name}`, () => {
    let subject: ContractSubject;
    let store: EventStore;
    beforeAll(async () => {
      subject = await open();
      store = subject.store;
    });
    afterAll(async () => subject?.dispose());

    it('appends to a new stream and reads it back in order', async () => {
      const id = stream('cart');
      const result = await store.appendToStream(id, [ev('Opened', { n: 1 }), ev('Added', { n: 2 })], {
        expectedRevision: 'no_stream',
      });
      expect(result.nextRevision).toBe(1);
      const read = await store.readStream(id);
      expect(read.revision).toBe(1);
      expect(read.events.map((e) => [e.type, e.revision, e.data])).toEqual([
        ['Opened', 0, { n: 1 }],
        ['Added', 1, { n: 2 }],
      ]);
      expect(read.events[1]!.position).toBe(result.position);
    });

    it('records facts at the positions a counter handed out, across streams, once however often it is repeated', async () => {
      const a = stream('clicks');
      const b = stream('clicks');
      const facts = [
        { streamId: a, revision: 0, ...ev('Clicked', { n: 1 }) },
        { streamId: b, revision: 0, ...ev('Clicked', { n: 1 }) },
        { streamId: a, revision: 1, ...ev('Clicked', { n: 2 }) },
      ];
      await store.recordAtPositions(facts);
      await store.recordAtPositions(facts);
      await store.recordAtPositions([]);
      expect((await store.readStream(a)).events.map((e) => [e.revision, e.data])).toEqual([
        [0, { n: 1 }],
        [1, { n: 2 }],
      ]);
      expect((await store.readStream(b)).events.map((e) => e.id)).toEqual([facts[1]!.id]);
      const feed = await readFeed(store, null);
      expect(feed.filter((e) => e.streamId === a || e.streamId === b)).toHaveLength(3);
    });

    it('reads the feed for a reader of some types: only its events, whole, and where each page ended', async () => {
      const id = stream('typed');
      await store.appendToStream(id, [
        ev('Wanted', { n: 1 }),
        ev('Other', { big: 'x'.repeat(1000) }),
        ev('Wanted', { n: 2 }),
        ev('Other', { n: 3 }),
      ]);
      const head = await store.headPosition();
      const whole = (await readFeed(store, null)).filter((e) => e.streamId === id);
      const wanted: RecordedEvent[] = [];
      const ends: string[] = [];
      // Pages of 2: the page that ends on an 'Other' still says where it ended, so the reader moves past it.
      for (let after: string | null = null; head && (after === null || store.comparePositions(after, head) < 0);) {
        const page = await store.readFeedFor(after, 2, ['Wanted']);
        expect(page.events.every((e) => e.type === 'Wanted')).toBe(true);
        expect(page.events.length).toBeLessThanOrEqual(2);
        // Not full: the end of what is readable now (its last position is the feed's last readable event).
        if (!page.more) expect(page.events.length).toBeLessThan(2);
        wanted.push(...page.events);
        if (page.last !== null) {
          ends.push(page.last);
          after = page.last;
        } else await new Promise((r) => setTimeout(r, 5));
      }
      expect(wanted.filter((e) => e.streamId === id).map((e) => [e.position, e.data])).toEqual(
        whole.filter((e) => e.type === 'Wanted').map((e) => [e.position, e.data]),
      );
      expect(ends).toContain(whole.at(-1)!.position);
      const nothing = await store.readFeedFor(head, 10, ['Wanted']);
      expect(nothing).toEqual({ events: [], more: false, last: null });
    });

    it('reads several streams at once, each in order, a missing one as empty', async () => {
      const a = stream('many');
      const b = stream('many');
      await store.appendToStream(a, [ev('A', { n: 1 }), ev('A', { n: 2 })]);
      await store.appendToStream(b, [ev('B', { n: 3 })]);
      const none = stream('none');
      const read = await store.readStreams([b, a, none, a]);
      expect([...read.keys()].sort()).toEqual([a, b, none].sort());
      expect(read.get(a)!.revision).toBe(1);
      expect(read.get(a)!.events.map((e) => e.data)).toEqual([{ n: 1 }, { n: 2 }]);
      expect(read.get(b)).toEqual(await store.readStream(b));
      expect(read.get(none)).toEqual({ revision: -1, events: [] });
    });

    it('appends to several streams at once, each at its expected revision, and refuses a stream that moved', async () => {
      const a = stream('batch');
      const b = stream('batch');
      await store.appendToStream(a, [ev('A')], { expectedRevision: 'no_stream' });
      const [first, second] = await store.appendToStreams([
        { streamId: a, events: [ev('A2'), ev('A3')], expectedRevision: 0 },
        { streamId: b, events: [ev('B1')], expectedRevision: 'no_stream' },
      ]);
      const readA = await store.readStream(a);
      const readB = await store.readStream(b);
      expect(readA.events.map((e) => e.type)).toEqual(['A', 'A2', 'A3']);
      expect(first).toEqual({
        nextRevision: 2,
        position: readA.events[2]!.position,
        positions: readA.events.slice(1).map((e) => e.position),
      });
      expect(second).toEqual({
        nextRevision: 0,
        position: readB.events[0]!.position,
        positions: [readB.events[0]!.position],
      });
      await expect(
        store.appendToStreams([{ streamId: b, events: [ev('B2')], expectedRevision: 'no_stream' }]),
      ).rejects.toBeInstanceOf(WrongExpectedRevisionError);
      await expect(
        store.appendToStreams([{ streamId: a, events: [ev('A4')], expectedRevision: 1 }]),
      ).rejects.toMatchObject({ streamId: a, actual: 2 });
      expect((await store.readStream(a)).revision).toBe(2);
      expect((await store.readStream(b)).revision).toBe(0);
    });

    it('answers a missing stream with revision -1 and no events', async () => {
      expect(await store.readStream(stream('none'))).toEqual({ revision: -1, events: [] });
    });

    it('keeps metadata with the event', async () => {
      const id = stream('meta');
      await store.appendToStream(id, [
        { id: randomUUID(), type: 'Set', data: { v: 1 }, metadata: { actorId: 'a1', ip: '10.0.0.1' } },
      ]);
      const [event] = (await store.readStream(id)).events;
      expect(event!.metadata).toMatchObject({ actorId: 'a1', ip: '10.0.0.1' });
    });

    it('refuses an append whose expected revision is stale, with a typed error', async () => {
      const id = stream('acct');
      await store.appendToStream(id, [ev('A')], { expectedRevision: 'no_stream' });
      await store.appendToStream(id, [ev('B')], { expectedRevision: 0 });
      await expect(store.appendToStream(id, [ev('C')], { expectedRevision: 0 })).rejects.toBeInstanceOf(
        WrongExpectedRevisionError,
      );
      await expect(store.appendToStream(id, [ev('C')], { expectedRevision: 'no_stream' })).rejects.toBeInstanceOf(
        WrongExpectedRevisionError,
      );
      await expect(
        store.appendToStream(stream('fresh'), [ev('C')], { expectedRevision: 'stream_exists' }),
      ).rejects.toBeInstanceOf(WrongExpectedRevisionError);
      expect((await store.readStream(id)).revision).toBe(1);
    });

    it('refuses an expected revision beyond the stream, leaving no hole in it', async () => {
      const id = stream('ahead');
      await store.appendToStream(id, [ev('A'), ev('B')], { expectedRevision: 'no_stream' });
      const refused = await store.appendToStream(id, [ev('C')], { expectedRevision: 5 }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(WrongExpectedRevisionError);
      expect((refused as WrongExpectedRevisionError).actual).toBe(1);
      await store.appendToStream(id, [ev('C')], { expectedRevision: 1 });
      expect((await store.readStream(id)).events.map((e) => e.revision)).toEqual([0, 1, 2]);
    });

    it('appends with "any" from many writers at once, every event at its own next position', async () => {
      const id = stream('any');
      await Promise.all(Array.from({ length: 12 }, () => store.appendToStream(id, [ev('Any')])));
      expect((await store.readStream(id)).events.map((e) => e.revision)).toEqual([...Array(12).keys()]);
    });

    it('treats the same append repeated (same event ids) as a no-op', async () => {
      const id = stream('idem');
      const batch = [ev('A'), ev('B')];
      const first = await store.appendToStream(id, batch, { expectedRevision: 'no_stream' });
      const again = await store.appendToStream(id, batch, { expectedRevision: 'no_stream' });
      expect(again.nextRevision).toBe(first.nextRevision);
      expect((await store.readStream(id)).events).toHaveLength(2);
    });

    it('lets exactly one of many racing appends with the same expected revision win', async () => {
      const id = stream('race');
      await store.appendToStream(id, [ev('Start')], { expectedRevision: 'no_stream' });
      const results = await Promise.allSettled(
        Array.from({ length: 10 }, () => store.appendToStream(id, [ev('Next')], { expectedRevision: 0 })),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      for (const r of results.filter((r) => r.status === 'rejected')) {
        expect(r.reason).toBeInstanceOf(WrongExpectedRevisionError);
      }
      expect((await store.readStream(id)).revision).toBe(1);
    });

    it('reads the global feed in batches, in position order, each event once', async () => {
      const start = (await readFeed(store, null)).at(-1)?.position ?? null;
      const id = stream('feed');
      for (let i = 0; i < 7; i++) await store.appendToStream(id, [ev('Tick', { i })]);
      const seen = (await readFeed(store, start, 3)).filter((e) => e.streamId === id);
      expect(seen.map((e) => (e.data as { i: number }).i)).toEqual([0, 1, 2, 3, 4, 5, 6]);
      for (let i = 1; i < seen.length; i++) {
        expect(store.comparePositions(seen[i - 1]!.position, seen[i]!.position)).toBeLessThan(0);
      }
    });

    it('answers the head position: the newest committed event', async () => {
      const result = await store.appendToStream(stream('head'), [ev('Last')]);
      expect(await store.headPosition()).toBe(result.position);
    });

    it('wakes a listener when events are appended', async () => {
      let woken = 0;
      const stop = await store.onAppended(() => woken++);
      try {
        await store.appendToStream(stream('wake'), [ev('Ping')]);
        await expect.poll(() => woken, { timeout: 5000 }).toBeGreaterThan(0);
      } finally {
        await stop();
      }
    });

    it('is gap-safe: 16 concurrent writers and a live reader see every event exactly once, in stream order', async () => {
      const start = (await readFeed(store, null)).at(-1)?.position ?? null;
      const writers = 16;
      const perWriter = 25;
      const shared = stream('shared');
      const runId = randomUUID();
      const delivered: RecordedEvent[] = [];
      const expected = writers * perWriter + writers * Math.ceil(perWriter / 5);
      let head: string | null = null;

      // A live reader that follows the feed while the writers are still writing, until it reaches the head the
      // writers left (or gives up after 60 s, which fails the counts below).
      const reader = (async () => {
        const deadline = Date.now() + 60_000;
        let after = start;
        while (Date.now() < deadline) {
          const page = await store.readAll(after, 50);
          for (const e of page) if ((e.data as { run?: string }).run === runId) delivered.push(e);
          if (page.length > 0) after = page[page.length - 1]!.position;
          else if (head !== null && after !== null && store.comparePositions(after, head) >= 0) return;
          else await new Promise((r) => setTimeout(r, 2));
        }
      })();

      await Promise.all(
        Array.from({ length: writers }, async (_, w) => {
          const own = stream(`writer${w}`);
          for (let i = 0; i < perWriter; i++) {
            await store.appendToStream(own, [ev('Wrote', { run: runId, w, i })]);
            if (i % 5 === 0) {
              // Contended stream: optimistic concurrency with retry.
              for (;;) {
                const { revision } = await store.readStream(shared);
                try {
                  await store.appendToStream(shared, [ev('Shared', { run: runId, w, i })], {
                    expectedRevision: revision === -1 ? 'no_stream' : revision,
                  });
                  break;
                } catch (err) {
                  if (!(err instanceof WrongExpectedRevisionError)) throw err;
                }
              }
            }
          }
        }),
      );
      head = await store.headPosition();
      await reader;

      const ids = delivered.map((e) => e.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.length).toBe(expected);
      // Within each stream the feed keeps the stream's order.
      const byStream = new Map<string, number[]>();
      for (const e of delivered) byStream.set(e.streamId, [...(byStream.get(e.streamId) ?? []), e.revision]);
      for (const revisions of byStream.values()) {
        expect(revisions).toEqual([...revisions].sort((a, b) => a - b));
      }
      // Feed positions only move forward.
      for (let i = 1; i < delivered.length; i++) {
        expect(store.comparePositions(delivered[i - 1]!.position, delivered[i]!.position)).toBeLessThan(0);
      }
    }, 120_000);
  });
}
