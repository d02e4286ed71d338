import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testBackends, type TestDatabase } from '../../testing/test-database.js';
import { queryRows } from './database.js';
import { isTransientDatabaseError } from './transient-errors.js';

describe('the PostgreSQL pool when a connection is cut', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase({ poolSize: 4 });
  });
  afterAll(async () => t?.dispose());

  it('fails a transaction whose connection is cut as the database, not the process, and goes on', async () => {
    // Five at once on a pool of four: a cut client is not lent out again.
    const outcomes = await Promise.allSettled(
      Array.from({ length: 5 }, (_, i) =>
        t.database.db.transaction(async (tx) => {
          await tx.execute(sql`select 1`);
          if (i % 2 === 0) await tx.execute(sql`select pg_terminate_backend(pg_backend_pid())`);
          return i;
        }),
      ),
    );
    const failed = outcomes.filter((o) => o.status === 'rejected');
    expect(failed).toHaveLength(3);
    expect(failed.every((o) => isTransientDatabaseError(o.reason))).toBe(true);
    expect(outcomes.filter((o) => o.status === 'fulfilled').map((o) => o.value)).toEqual([1, 3]);
    // The pool lends working connections afterwards, in and out of transactions.
    const rows = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        i % 2 === 0
          ? t.database.query<{ n: number }>('select $1::int as n', [i])
          : t.database.db.transaction((tx) => queryRows<{ n: number }>(tx, sql`select ${i}::int as n`)),
      ),
    );
    expect(rows.map((r) => r[0]!.n)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });
});

describe.each(testBackends())('durable(): what was committed without waiting for the disk (%s)', (_name, embedded) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase({ embedded, poolSize: 6 });
    await t.database.query('create table durable_probe (n int)');
  });
  afterAll(async () => t?.dispose());

  it('settles only once the log is flushed past every commit made before it, however many ask at once', async () => {
    for (let round = 0; round < 20; round++) {
      // A commit that does not wait for the disk, as a claim's is; where the log stood after it.
      await t.database.db.transaction(async (tx) => {
        await tx.execute(sql`set local synchronous_commit = off`);
        await tx.execute(sql`insert into durable_probe values (${round})`);
      });
      const [after] = await t.database.query<{ lsn: string }>(`select pg_current_wal_insert_lsn()::text as lsn`);
      await Promise.all(Array.from({ length: 10 }, () => t.database.durable()));
      const [flushed] = await t.database.query<{ ok: boolean }>(
        `select pg_current_wal_flush_lsn() >= $1::pg_lsn as ok`,
        [after!.lsn],
      );
      expect(flushed!.ok, `round ${round}`).toBe(true);
    }
  });
});
