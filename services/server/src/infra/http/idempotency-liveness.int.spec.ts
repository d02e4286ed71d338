import { randomUUID } from 'node:crypto';
import type { User } from '@seatlink/contracts';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiProcess } from '../../testing/api-process.js';
import { ApiClient, startTestStack, type TestStack } from '../../testing/test-app.js';
import { alterEventLog } from '../../testing/event-log-ddl.js';

/*
 * An Idempotency-Key taken by a request whose process is gone is free at once (not after the one-minute lease): a
 * second API process runs a request that the database holds up (a trigger), a retry on the first process is told it
 * is in progress while that process lives, and runs at once when it is killed.
 */
describe('Idempotency-Key of a request whose process died', () => {
  let stack: TestStack;
  let admin: ApiClient;
  let userId: string;
  let sql: pg.Client;

  beforeAll(async () => {
    stack = await startTestStack();
    admin = new ApiClient(stack.baseUrl);
    await admin.login('admin@seatlink.test', 'Admin123!');
    userId = ((await new ApiClient(stack.baseUrl).login('user@seatlink.test', 'User1234!')).body.user as User).id;
    sql = new pg.Client({ connectionString: stack.config.DATABASE_URL });
    await sql.connect();
    await sql.query(
      `alter database ${pg.escapeIdentifier(sql.database!)} set client_connection_check_interval = '50ms'`,
    );
  }, 60_000);
  afterAll(async () => {
    await sql?.end();
    await stack?.close();
  });

  it('is in progress while its process lives, and free the moment it is killed', async () => {
    await sql.query(`create or replace function hold_credits_set() returns trigger language plpgsql as $$
      begin
        if new.type = 'CreditsSet' and new.data->>'credits' = '777' then perform pg_sleep(30); end if;
        return new;
      end $$`);
    await alterEventLog(
      sql,
      'create trigger hold_credits_set before insert on events for each row execute function hold_credits_set()',
    );
    const second = await startApiProcess(stack.config);
    try {
      const other = new ApiClient(second.baseUrl);
      await other.login('admin@seatlink.test', 'Admin123!');
      const headers = { 'idempotency-key': `k-${randomUUID()}` };
      const body = { credits: 777, reason: 'Test' };
      const held = other.request('PUT', `/v1/admin/users/${userId}/credits`, body, { headers }).catch(() => null);
      // Held by the database, past its key's claim.
      await expect
        .poll(async () => (await sql.query(`select 1 from pg_stat_activity where wait_event = 'PgSleep'`)).rows.length)
        .toBe(1);
      // The same admin (its own session on this process) retries while the first still runs: in progress.
      await expect
        .poll(
          async () => (await admin.request('PUT', `/v1/admin/users/${userId}/credits`, body, { headers })).body.code,
        )
        .toBe('IDEMPOTENCY_IN_PROGRESS');
      await second.signal('SIGKILL');
      expect(await held).toBeNull();
      await alterEventLog(sql, 'drop trigger hold_credits_set on events');
      // Free at once: the retry runs (well inside the minute's lease), and the change is made once.
      const retried = await admin.request('PUT', `/v1/admin/users/${userId}/credits`, body, { headers });
      expect(retried.status).toBe(200);
      expect((retried.body.user as User).balance).toBe(777);
      const sets = await sql.query<{ n: number }>(
        `select count(*)::int as n from events where stream_id = $1 and type = 'CreditsSet' and data->>'credits' = '777'`,
        [`credits-${userId}`],
      );
      expect(sets.rows[0]!.n).toBe(1);
    } finally {
      await second.stop();
      await alterEventLog(sql, 'drop trigger if exists hold_credits_set on events');
    }
  }, 60_000);
});
