import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventStore, StreamAppend } from '../../infra/event-store/event-store.port.js';
import { SqlEventStore } from '../../infra/event-store/sql-event-store.js';
import { createTestDatabase, type TestDatabase } from '../../testing/test-database.js';
import { type BatchCommand, handleCommand, handleCommands, type KnownStream } from './aggregate-handler.js';
import type { Decider } from './decider.js';

type Added = { type: 'Added'; data: { n: number; total: number } };
/** A running total: each Add records the total it makes, so a decision shows the state it was made on. */
const total: Decider<number, { type: 'Add'; n: number }, Added> = {
  initialState: () => 0,
  evolve: (state, event) => event.data.total,
  decide: (command, state) =>
    command.n === 0 ? [] : [{ type: 'Added', data: { n: command.n, total: state + command.n } }],
};

const add = (streamId: string, n: number, commandId = randomUUID()): BatchCommand<{ type: 'Add'; n: number }> => ({
  streamId,
  command: { type: 'Add', n },
  commandId,
  metadata: { actorId: 'test' },
});

/** One Add on `streamId`, as a command of its own (decided on `known` first when given). */
const addOne = (store: EventStore, streamId: string, n: number, known?: KnownStream<number>) =>
  handleCommand(store, total, streamId, { type: 'Add', n }, { metadata: {}, commandId: randomUUID(), known });

/** The totals each stream recorded, in order. */
const totalsIn = async (store: EventStore, ids: string[]) =>
  [...(await store.readStreams(ids)).values()].map((s) => s.events.map((e) => (e.data as Added['data']).total));

describe('a batch of commands', () => {
  let db: TestDatabase;
  let store: EventStore;
  beforeAll(async () => {
    db = await createTestDatabase();
    store = new SqlEventStore(db.database);
  });
  afterAll(async () => db?.dispose());

  const totals = (ids: string[]) => totalsIn(store, ids);

  it('decides each command on its stream as one command would, in order, and appends the batch at once', async () => {
    const [a, b] = [`total-${randomUUID()}`, `total-${randomUUID()}`];
    await addOne(store, a, 10);
    const commands = [add(a, 1), add(b, 2), add(a, 3), add(b, 0)];
    const results = await handleCommands(store, total, commands);
    expect(results.map((r) => [r.state, r.events.map((e) => e.data.total), r.repeated])).toEqual([
      [10, [11], false],
      [0, [2], false],
      [11, [14], false],
      [2, [], false],
    ]);
    expect(await totals([a, b])).toEqual([[10, 11, 14], [2]]);
    const read = await store.readStreams([a, b]);
    expect(results[0]!.position).toBe(read.get(a)!.events[1]!.position);
    expect(results[2]!.position).toBe(read.get(a)!.events[2]!.position);
    expect(results[3]!.position).toBeNull();

    // The same commands again (a reaction run twice): each answers what it decided, nothing is appended.
    const again = await handleCommands(store, total, commands);
    expect(again.map((r) => [r.repeated, r.events.map((e) => e.data.total), r.position])).toEqual(
      results.map((r, i) => [i !== 3, r.events.map((e) => e.data.total), r.position]),
    );
    expect(await totals([a, b])).toEqual([[10, 11, 14], [2]]);
  });

  it('reads and decides the whole batch again when one of its streams moved before the append', async () => {
    const [a, b] = [`total-${randomUUID()}`, `total-${randomUUID()}`];
    let appends = 0;
    // Another writer adds 100 to b between the batch's read and its first append.
    const racing = Object.create(store, {
      appendToStreams: {
        value: async (batch: readonly StreamAppend[]) => {
          if (appends++ === 0) {
            await addOne(store, b, 100);
          }
          return store.appendToStreams(batch);
        },
      },
    }) as EventStore;
    const results = await handleCommands(racing, total, [add(a, 1), add(b, 2)]);
    expect(appends).toBe(2);
    expect(results.map((r) => r.state)).toEqual([0, 100]);
    expect(await totals([a, b])).toEqual([[1], [100, 102]]);
  });
});

describe('a command decided on the stream as its sender read it', () => {
  let db: TestDatabase;
  let store: EventStore;
  beforeAll(async () => {
    db = await createTestDatabase();
    store = new SqlEventStore(db.database);
  });
  afterAll(async () => db?.dispose());

  /** The store, counting its stream reads. */
  const counting = () => {
    const reads = { n: 0 };
    const counted = Object.create(store, {
      readStream: {
        value: (streamId: string) => {
          reads.n++;
          return store.readStream(streamId);
        },
      },
    }) as EventStore;
    return { counted, reads };
  };
  const known = async (streamId: string) => {
    const { revision, events } = await store.readStream(streamId);
    return { revision, events, state: events.reduce((s, e) => (e.data as Added['data']).total, 0) };
  };
  const totalsOf = async (streamId: string) => (await totalsIn(store, [streamId]))[0];

  it('appends what it decides on it without reading the stream again', async () => {
    const a = `total-${randomUUID()}`;
    await addOne(store, a, 10);
    const { counted, reads } = counting();
    const result = await addOne(counted, a, 1, await known(a));
    expect(reads.n).toBe(0);
    expect(result.state).toBe(10);
    expect(await totalsOf(a)).toEqual([10, 11]);
  });

  it('reads the stream again and decides again when it moved since the sender read it', async () => {
    const a = `total-${randomUUID()}`;
    await addOne(store, a, 10);
    const read = await known(a);
    await addOne(store, a, 100);
    const { counted, reads } = counting();
    const result = await addOne(counted, a, 1, read);
    expect(reads.n).toBe(1);
    expect(result.state).toBe(110);
    expect(await totalsOf(a)).toEqual([10, 110, 111]);
  });

  it('confirms on a fresh read a decision of no events', async () => {
    const a = `total-${randomUUID()}`;
    const { counted, reads } = counting();
    const result = await addOne(counted, a, 0, await known(a));
    expect(reads.n).toBe(1);
    expect(result.events).toEqual([]);
  });
});
