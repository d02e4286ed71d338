import { randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECIPIENT_BROWSER } from '../../testing/link-holder.js';
import { startTestStack, type TestStack } from '../../testing/test-app.js';
import { testBackends } from '../../testing/test-database.js';
import { errorCode } from './db-errors.js';
import { DATABASE } from './database.module.js';
import type { Database } from './database.js';

/**
 * No wait on the database without a bound: a statement, a lock's wait, a transaction left idle and a connection of the
 * pool each end in an error past theirs (DB_*_TIMEOUT_MS), a request that met one answers 503 with Retry-After, and the
 * log says what held the database. On PostgreSQL and on the embedded server alike.
 */
describe.each(testBackends())('bounded waits on the database (%s)', (_name, embedded) => {
  let stack: TestStack;
  let database: Database;

  beforeAll(async () => {
    stack = await startTestStack({
      embedded,
      env: {
        DB_STATEMENT_TIMEOUT_MS: '1500',
        DB_LOCK_TIMEOUT_MS: '400',
        DB_IDLE_IN_TRANSACTION_TIMEOUT_MS: '800',
      },
    });
    database = stack.app.get<Database>(DATABASE);
  });
  afterAll(async () => stack?.close());

  it('sets the bounds on the connections of the pool', async () => {
    const [row] = await database.query<Record<string, string>>(
      `select current_setting('statement_timeout') as statement, current_setting('lock_timeout') as lock,
              current_setting('idle_in_transaction_session_timeout') as idle`,
    );
    expect(row).toEqual({ statement: '1500ms', lock: '400ms', idle: '800ms' });
  });

  it('ends a statement past its bound with an error (57014), and the pool answers on', async () => {
    const failed = await database.query('select pg_sleep(10)').catch((err: unknown) => err);
    expect(errorCode(failed)).toBe('57014');
    expect(await database.ping()).toBe(true);
  });

  it('ends a transaction left open and idle, freeing what it held', async () => {
    const code = newCode();
    await openCounter(database, code);
    const left = database.db
      .transaction(async (tx) => {
        await tx.execute(sql`select * from link_counters where code = ${code} for update`);
        // Held by a turn that waits on something else: past the bound, the server ends the transaction.
        await new Promise((resolve) => setTimeout(resolve, 2000));
        await tx.execute(sql`select 1`);
      })
      .then(
        () => 'committed',
        () => 'ended',
      );
    await new Promise((resolve) => setTimeout(resolve, 1200));
    // The row is free again: a claim decides on it (the link has no ticket: refused, not held).
    const claim = await claimOf(stack, code);
    expect(claim.status).toBe(410);
    expect(await left).toBe('ended');
  });

  it('answers a claim behind a row another transaction holds with 503 and Retry-After, and logs who held it', async () => {
    const code = newCode();
    await openCounter(database, code);
    const holder = new pg.Client({ connectionString: stack.config.DATABASE_URL, application_name: 'the-holder' });
    await holder.connect();
    try {
      await holder.query('begin');
      await holder.query('select * from link_counters where code = $1 for update', [code]);
      const from = logged.length;
      const claim = await claimOf(stack, code);
      // The report is written once what held the database has been read.
      await expect.poll(() => logged.slice(from), { timeout: 5000 }).toMatch(/held by/);
      const log = logged.slice(from);
      expect(claim.status).toBe(503);
      expect(claim.headers.get('retry-after')).toBe('1');
      expect(((await claim.json()) as { code: string }).code).toBe('UNAVAILABLE');
      expect(log).toMatch(/a lock waited for past DB_LOCK_TIMEOUT_MS/);
      expect(log).toMatch(/held by: .*\(the-holder\) idle in transaction/);
    } finally {
      await holder.query('rollback').catch(() => undefined);
      await holder.end();
    }
    // Once the holder let go, the same claim is decided.
    expect((await claimOf(stack, code)).status).toBe(410);
  });

  /** Everything the process wrote while the suite ran (Nest's logger writes to stdout and stderr). */
  let logged = '';
  const write = process.stderr.write.bind(process.stderr);
  const writeOut = process.stdout.write.bind(process.stdout);
  beforeAll(() => {
    const tap =
      (w: typeof process.stderr.write) =>
      (chunk: string | Uint8Array, ...rest: unknown[]) => {
        logged += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
        return (w as (c: unknown, ...r: unknown[]) => boolean)(chunk, ...rest);
      };
    process.stderr.write = tap(write);
    process.stdout.write = tap(writeOut);
  });
  afterAll(() => {
    process.stderr.write = write;
    process.stdout.write = writeOut;
  });
});

/** A code as links have (128 random bits, base64url). */
const newCode = () => randomBytes(16).toString('base64url');

/** A link's counter row of its own (its ticket unknown: a claim of it is refused as withdrawn, once decided). */
async function openCounter(database: Database, code: string) {
  await database.query(
    `insert into link_counters (distribution_id, code, ticket_id, user_id) values ($1, $2, $3, $4)`,
    [randomUUID(), code, randomUUID(), randomUUID()],
  );
}

function claimOf(stack: TestStack, code: string) {
  return fetch(`${stack.baseUrl}/v1/links/${code}/claim`, {
    method: 'POST',
    headers: { 'user-agent': RECIPIENT_BROWSER, 'idempotency-key': randomBytes(8).toString('hex') },
    signal: AbortSignal.timeout(15_000),
  });
}
