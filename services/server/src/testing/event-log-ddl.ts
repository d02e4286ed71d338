import type pg from 'pg';

/**
 * A test's DDL on the event log's table (a trigger that holds or slows an append) in a transaction that locks the
 * table first. `events` is partitioned: an append locks the table, then its partition, while a trigger made or dropped
 * alone may lock a partition before the table, and the two then deadlock (seen in CI when a killed process's append
 * was still running).
 */
export async function alterEventLog(client: pg.Client, ddl: string): Promise<void> {
  await client.query('begin');
  try {
    await client.query('lock table events in access exclusive mode');
    await client.query(ddl);
    await client.query('commit');
  } catch (err) {
    await client.query('rollback').catch(() => undefined);
    throw err;
  }
}
