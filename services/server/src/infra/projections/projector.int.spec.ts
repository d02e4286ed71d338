import { randomUUID } from 'node:crypto';
import { CommandBus } from '@nestjs/cqrs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readModels } from '../../read-models.js';
import { SetCreditsCommand } from '../../modules/credits/set-credits.handler.js';
import { RegisterUserCommand } from '../../modules/identity/register-user.handler.js';
import { startTestStack, type TestStack } from '../../testing/test-app.js';
import { createTestDatabase, type TestDatabase } from '../../testing/test-database.js';
import { queryRows, type Database } from '../db/database.js';
import { DATABASE } from '../db/database.module.js';
import { EVENT_STORE, type EventStore } from '../event-store/event-store.port.js';
import { SqlEventStore } from '../event-store/sql-event-store.js';
import type { Projection } from './projection.js';
import { ProjectorRunner } from './projections.module.js';
import { Projector, readCheckpoint } from './projector.js';

async function dump(database: Database, table: string) {
  return queryRows<Record<string, unknown>>(database.db, sql.raw(`select * from "${table}" order by 1`));
}

describe('replay', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ redis: false });
  });
  afterAll(async () => stack?.close());

  it('rebuilds read models equal to the live-built ones', async () => {
    const bus = stack.app.get(CommandBus);
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) {
      const { userId } = await bus.execute(
        new RegisterUserCommand({
          email: `replay${i}@example.com`,
          password: 'Passw0rd!',
          firstName: `F${i}`,
          lastName: `L${i}`,
          isAdmin: i === 0,
          emailVerified: i % 2 === 0,
        }),
      );
      ids.push(userId);
    }
    for (let round = 0; round < 5; round++) {
      for (const [i, userId] of ids.entries()) {
        await bus.execute(new SetCreditsCommand({ userId, credits: round * 10 + i, actorId: ids[0]! }));
      }
    }
    const database = stack.app.get<Database>(DATABASE);
    const store = stack.app.get<EventStore>(EVENT_STORE);
    const live = stack.app.get(ProjectorRunner).projector;
    await live.stop();
    await live.catchUp();
    const tables = [...new Set(readModels.flatMap((p) => p.tables))];
    const before = Object.fromEntries(await Promise.all(tables.map(async (t) => [t, await dump(database, t)])));
    expect((before.users as unknown[]).length).toBe(10);
    expect((before.credit_balances as unknown[]).length).toBe(9);

    const replayed = await new Projector(database, store, readModels).rebuild();
    expect(replayed).toBeGreaterThanOrEqual(8 * 2 + 8 * 5);
    const after = Object.fromEntries(await Promise.all(tables.map(async (t) => [t, await dump(database, t)])));
    expect(after).toEqual(before);
  });
});

describe('projector', () => {
  let t: TestDatabase;
  let store: SqlEventStore;
  beforeAll(async () => {
    t = await createTestDatabase();
    store = new SqlEventStore(t.database);
    await t.database.db.execute(sql`create table tally (stream text primary key, n int not null)`);
  });
  afterAll(async () => t?.dispose());

  const tally = (fail?: (n: number) => boolean): Projection => ({
    name: 'tally',
    tables: ['tally'],
    handles: ['Counted'],
    async apply(event, { tx }) {
      const n = (event.data as { n: number }).n;
      if (fail?.(n)) throw new Error(`boom at ${n}`);
      await tx.execute(
        sql`insert into tally (stream, n) values (${event.streamId}, 1)
            on conflict (stream) do update set n = tally.n + 1`,
      );
    },
  });

  it('commits a batch and its checkpoint together: a failing event leaves neither rows nor checkpoint moved', async () => {
    const stream = `count-${randomUUID()}`;
    for (let n = 0; n < 6; n++)
      await store.appendToStream(stream, [{ id: randomUUID(), type: 'Counted', data: { n } }]);
    const checkpointBefore = await readCheckpoint(t.database);
    // The feed shows them once no older transaction is open anywhere on the server (other test files share it).
    await expect
      .poll(async () => (await store.readAll(checkpointBefore, 1000)).filter((e) => e.streamId === stream).length)
      .toBe(6);
    const failing = new Projector(t.database, store, [tally((n) => n === 4)], { batchSize: 100 });
    await expect(failing.step()).rejects.toThrow(/boom at 4/);
    expect(await readCheckpoint(t.database)).toBe(checkpointBefore);
    expect(await queryRows(t.database.db, sql`select * from tally where stream = ${stream}`)).toEqual([]);

    const healthy = new Projector(t.database, store, [tally()], { batchSize: 4 });
    await healthy.catchUp();
    await healthy.catchUp();
    expect(await queryRows(t.database.db, sql`select n from tally where stream = ${stream}`)).toEqual([{ n: 6 }]);
  });

  it('follows the feed live and lets only one projector hold the lock', async () => {
    const first = new Projector(t.database, store, [tally()], { pollMs: 50, lockRetryMs: 50 });
    const second = new Projector(t.database, store, [tally()], { pollMs: 50, lockRetryMs: 50 });
    first.start();
    await new Promise((r) => setTimeout(r, 100));
    second.start();
    const stream = `live-${randomUUID()}`;
    for (let n = 0; n < 20; n++)
      await store.appendToStream(stream, [{ id: randomUUID(), type: 'Counted', data: { n } }]);
    await expect
      .poll(async () => queryRows(t.database.db, sql`select n from tally where stream = ${stream}`), {
        timeout: 10_000,
      })
      .toEqual([{ n: 20 }]);
    // The second projector is waiting for the lock; a rebuild cannot take it either.
    await expect(new Projector(t.database, store, [tally()]).rebuild()).rejects.toThrow(/Another projector/);
    await first.stop();
    // Once the first lets go, the standby takes over and carries on from the checkpoint.
    for (let n = 20; n < 25; n++)
      await store.appendToStream(stream, [{ id: randomUUID(), type: 'Counted', data: { n } }]);
    await expect
      .poll(async () => queryRows(t.database.db, sql`select n from tally where stream = ${stream}`), {
        timeout: 10_000,
      })
      .toEqual([{ n: 25 }]);
    await second.stop();
  });
});
