import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { type ExtractTablesWithRelations, type SQL, type SQLChunk, param, sql } from 'drizzle-orm';
import pg from 'pg';
import { Backoff } from '../../shared/backoff.js';
import { eventStoreRoutines, MAKE_CLAIM_PARTITIONS_SQL } from '../event-store/event-store.routines.js';
import { subscriptionRoutines } from '../subscriptions/subscription.routines.js';
import { readModelVersionRoutines } from './read-model-versions.routines.js';

// No relational schema: each module declares its own tables (`*.schema.ts`) and queries them with the query builder.
type NoSchema = Record<string, never>;
export type Db = PgDatabase<PgQueryResultHKT, NoSchema>;
export type Tx = PgTransaction<PgQueryResultHKT, NoSchema, ExtractTablesWithRelations<NoSchema>>;
/** Anything that runs queries: the database or an open transaction. */
export type Executor = Db | Tx;

const MIGRATIONS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../drizzle');

/**
 * A function the product runs in the database, kept as source by the code that calls it: `sql` is its whole
 * `CREATE OR REPLACE FUNCTION` statement. The migration that first made it keeps its history; this is what it is now.
 */
export interface Routine {
  /** The function's name (one function of that name: the routines are not overloaded). */
  readonly name: string;
  readonly sql: string;
}

/**
 * The routines applied at migrate time, in order, in one transaction (a failing one leaves the functions as they
 * were): the event store's, the subscriptions', the versioned read models', then the modules' (given by the
 * application: infra knows no module).
 * A function's body may call only those before it.
 */
function routinesScript(modules: readonly Routine[]): string {
  const all = [...eventStoreRoutines, ...subscriptionRoutines, ...readModelVersionRoutines, ...modules];
  return `BEGIN;\n${all.map((r) => r.sql.trim()).join('\n')}\nCOMMIT;`;
}

/**
 * A statement written as text with `$1`-style parameters, as drizzle SQL: the statements the hot paths run on the
 * database with `query` can then also run inside an open transaction. Each `$n` becomes one bound parameter (an array
 * stays one array parameter).
 */
export function sqlWithParams(text: string, params: readonly unknown[]): SQL {
  const chunks: SQLChunk[] = [];
  let from = 0;
  for (const match of text.matchAll(/\$(\d+)/g)) {
    const n = Number(match[1]);
    if (n < 1 || n > params.length) throw new Error(`No parameter $${n} among ${params.length}`);
    chunks.push(sql.raw(text.slice(from, match.index)), param(params[n - 1]));
    from = match.index + match[0].length;
  }
  chunks.push(sql.raw(text.slice(from)));
  return sql.join(chunks);
}

/** Rows of a raw `execute` result (node-postgres answers `{ rows }`). */
export async function queryRows<T>(executor: Executor, query: SQL): Promise<T[]> {
  const result: unknown = await executor.execute(query);
  return (result as { rows: T[] }).rows;
}

/** A held lock; release gives it back. */
export interface HeldLock {
  /** Settles when the lock is lost without a release (its connection died): its holder must stop at once. */
  readonly lost: Promise<void>;
  release(): Promise<void>;
}

/**
 * How long the application's connections may wait (every one a bound: a stuck turn ends in an error, never in a
 * process that must be killed). Server-side, for each statement and transaction; client-side, as a backstop for a
 * server that stops answering at all, and for a connection from the pool.
 */
export interface DatabaseTimeouts {
  /** A statement runs at most this long (`statement_timeout`): past it, SQLSTATE 57014. */
  statementMs: number;
  /** A statement waits at most this long for a lock (`lock_timeout`): a row another transaction holds; 55P03. */
  lockMs: number;
  /** A transaction left open and idle this long is ended (`idle_in_transaction_session_timeout`), its locks freed. */
  idleInTransactionMs: number;
  /** Waiting for a connection of the pool (all busy, or the server slow to accept one). */
  connectMs: number;
}

export const DEFAULT_DATABASE_TIMEOUTS: DatabaseTimeouts = {
  statementMs: 30_000,
  lockMs: 5_000,
  idleInTransactionMs: 30_000,
  connectMs: 10_000,
};

/** A server that answers nothing (stopped, cut off) fails a statement this long after its own bound would have. */
const READ_TIMEOUT_MARGIN_MS = 5_000;

/** What a dedicated connection reports; without a logger, nothing. */
export interface ConnectionEvents {
  onError?(what: string, err: unknown): void;
}

/**
 * The relational database: PostgreSQL over `pg`, the server of DATABASE_URL or the embedded one `npm start` runs
 * (embedded/embedded-postgres.ts): one engine, one pool, the same SQL everywhere.
 */
export interface Database {
  readonly db: Db;
  /**
   * One parameterised statement, outside any transaction, in one round trip: for the hot paths. With a `name`, it is
   * prepared once per connection (parsed and planned once) where the driver supports it.
   */
  query<T>(text: string, params?: readonly unknown[], name?: string): Promise<T[]>;
  /**
   * Calls `handler` for every NOTIFY on `channel` until the returned function is called, saying whether it was sent
   * by a statement on one of this object's own connections (`fromHere`). The connection heals: when it is lost it
   * reconnects with backoff and then calls `handler('', false)`, since notifications may have been missed.
   */
  listen(channel: string, handler: (payload: string, fromHere: boolean) => void): Promise<() => Promise<void>>;
  /** Session-level advisory lock held on a dedicated connection; null when another holder has it. */
  tryAdvisoryLock(key: number): Promise<HeldLock | null>;
  /**
   * One statement of upkeep that may take minutes (compacting a month of the event log): on a connection of its own,
   * without the statement timeout of the pool's (its locks still wait at most the lock timeout).
   */
  maintenance<T>(text: string, params?: readonly unknown[]): Promise<T[]>;
  /**
   * Applies the migrations, then every routine (`CREATE OR REPLACE`, so the functions are the source's whatever the
   * migrations left), then raises the feed's epoch when the database was restored into another cluster. Processes
   * that start together take turns.
   */
  migrate(): Promise<void>;
  ping(): Promise<boolean>;
  /**
   * Settles once everything this process committed before the call is on disk: for a transaction committed without
   * waiting for the disk (`synchronous_commit` off) whose answer must not be given before it is durable. One durable
   * commit of its own flushes the log up to its commit record, and so past every commit before it; the callers of one
   * turn of the event loop share one.
   */
  durable(): Promise<void>;
  /**
   * What holds the database now, for a log line when a statement timed out: the oldest open transactions of its other
   * sessions (process id, application, state, age, what they wait on, the start of their statement — never a
   * parameter), and whom each waits for. Empty when none is open.
   */
  describeBusy(): Promise<string>;
  close(): Promise<void>;
}

/** The server process of a pool's client (known once it is connected). */
const processIdOf = (client: pg.PoolClient): number | null =>
  (client as unknown as { processID?: number | null }).processID ?? null;

/** Lock key that serialises migrations across processes that start together. */
const MIGRATION_LOCK_KEY = 7310001;

class PostgresDatabase implements Database {
  readonly db: Db;
  private readonly pool: pg.Pool;

  constructor(
    private readonly url: string,
    poolSize: number,
    private readonly events: ConnectionEvents,
    private readonly routines: string,
    timeouts: DatabaseTimeouts,
  ) {
    this.pool = new pg.Pool({
      connectionString: url,
      max: poolSize,
      application_name: 'seatlink',
      statement_timeout: timeouts.statementMs,
      lock_timeout: timeouts.lockMs,
      idle_in_transaction_session_timeout: timeouts.idleInTransactionMs,
      query_timeout: timeouts.statementMs + READ_TIMEOUT_MARGIN_MS,
      connectionTimeoutMillis: timeouts.connectMs,
      // A peer that vanished without closing (a machine gone, a network cut) is noticed by the operating system.
      keepAlive: true,
    });
    // An idle client that loses its connection must not crash the process.
    this.pool.on('error', (err) => this.events.onError?.('pool', err));
    // Nor one lent out for a transaction (the pool listens to idle clients only): its error reaches the statement it
    // runs, and the pool drops it when it is given back; unheard, the client's 'error' event would end the process.
    this.pool.on('connect', (client) => {
      client.on('error', () => undefined);
      const pid = processIdOf(client);
      if (pid !== null) this.ownBackends.add(pid);
    });
    this.pool.on('remove', (client) => {
      const pid = processIdOf(client);
      if (pid !== null) this.ownBackends.delete(pid);
    });
    this.db = drizzlePg(this.pool);
  }

  /** The server processes of this pool's connections: a NOTIFY from one of them was sent from here. */
  private readonly ownBackends = new Set<number>();

  async query<T>(text: string, params: readonly unknown[] = [], name?: string): Promise<T[]> {
    const values = params as unknown[];
    return (await this.pool.query(name ? { name, text, values } : { text, values })).rows as T[];
  }

  /** A connection of its own (not the pool's), so that losing it never hands a broken client back to the pool. */
  private async dedicatedClient(name: string, onLost: (err?: unknown) => void): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: this.url, application_name: name });
    let ended = false;
    const lost = (err?: unknown) => {
      if (ended) return;
      ended = true;
      onLost(err);
    };
    client.on('error', (err) => {
      this.events.onError?.(name, err);
      lost(err);
    });
    client.on('end', () => lost());
    await client.connect();
    return client;
  }

  async listen(channel: string, handler: (payload: string, fromHere: boolean) => void) {
    const name = 'seatlink-listen';
    let closed = false;
    let reconnecting = false;
    let client: pg.Client | null = null;
    const backoff = new Backoff({ initialMs: 100, maxMs: 5000 });
    const connect = async (): Promise<void> => {
      let alive = true;
      let self: pg.Client | null = null;
      const c = await this.dedicatedClient(name, () => {
        alive = false;
        // Only a connection that was listening starts a reconnect; a failed start is retried by its caller.
        if (self !== null && client === self) {
          client = null;
          if (!closed) void reconnect();
        }
      });
      self = c;
      c.on('notification', (msg) => {
        if (msg.channel === channel) handler(msg.payload ?? '', this.ownBackends.has(msg.processId));
      });
      await c.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      if (!alive) throw new Error('the listening connection was lost while it started');
      client = c;
      if (closed) await c.end().catch(() => undefined);
    };
    const reconnect = async () => {
      if (reconnecting) return;
      reconnecting = true;
      try {
        while (!closed && client === null) {
          await backoff.wait();
          if (closed) return;
          try {
            await connect();
            backoff.reset();
            handler('', false);
          } catch (err) {
            this.events.onError?.(name, err);
          }
        }
      } finally {
        reconnecting = false;
      }
    };
    await connect();
    return async () => {
      closed = true;
      const c = client;
      client = null;
      await c?.end().catch(() => undefined);
    };
  }

  async maintenance<T>(text: string, params: readonly unknown[] = []): Promise<T[]> {
    const client = await this.dedicatedClient('seatlink-maintenance', () => undefined);
    try {
      await client.query('set statement_timeout = 0');
      return (await client.query(text, params as unknown[])).rows as T[];
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  async tryAdvisoryLock(key: number): Promise<HeldLock | null> {
    let signalLost!: () => void;
    const lost = new Promise<void>((resolve) => (signalLost = resolve));
    let released = false;
    const client = await this.dedicatedClient('seatlink-lock', () => {
      if (!released) signalLost();
    });
    try {
      const res = await client.query<{ locked: boolean }>('select pg_try_advisory_lock($1) as locked', [key]);
      if (!res.rows[0]?.locked) {
        released = true;
        await client.end();
        return null;
      }
    } catch (err) {
      released = true;
      await client.end().catch(() => undefined);
      throw err;
    }
    return {
      lost,
      release: async () => {
        if (released) return;
        released = true;
        // Ending the session gives the lock back, also when the unlock itself cannot be sent.
        await client.query('select pg_advisory_unlock($1)', [key]).catch(() => undefined);
        await client.end().catch(() => undefined);
      },
    };
  }

  async migrate() {
    const client = await this.pool.connect();
    try {
      // A migration may take its time, and waits for another process's to end: no bound but the caller's.
      await client.query('set statement_timeout = 0; set lock_timeout = 0');
      await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
      await migratePg(drizzlePg(client), { migrationsFolder: MIGRATIONS });
      // One round trip (a script of statements); on failure, the transaction it opened is rolled back.
      await client.query(this.routines).catch(async (err: unknown) => {
        await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      });
      await client.query('select seatlink_rebase_if_restored()');
      await client.query(MAKE_CLAIM_PARTITIONS_SQL);
    } finally {
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
      // Back to the pool's bounds; a connection that cannot say so is not given back.
      const reset = await client.query('reset statement_timeout; reset lock_timeout').then(
        () => undefined,
        (err: unknown) => err,
      );
      client.release(reset instanceof Error ? reset : undefined);
    }
  }

  /** The flush the callers of this turn of the event loop share, begun in the next (null: none asked for yet). */
  private nextFlush: Promise<void> | null = null;

  durable(): Promise<void> {
    // Begun after every caller's commit (they call once it has returned), so its commit record comes after theirs.
    // Flushes of consecutive turns may overlap: PostgreSQL writes the log once for the commits that wait together.
    this.nextFlush ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      this.nextFlush = null;
      // A transaction that writes to the log (a logical message of its own, read by nobody) commits durably; one that
      // only takes a transaction id writes nothing before its commit record, and PostgreSQL lets that go unflushed.
      return this.pool.query(`select pg_logical_emit_message(true, 'seatlink', 'durable')`, []).then(() => undefined);
    });
    return this.nextFlush;
  }

  async ping() {
    try {
      await this.pool.query('select 1');
      return true;
    } catch {
      return false;
    }
  }

  async describeBusy(): Promise<string> {
    const rows = await this.query<{
      pid: number;
      application_name: string;
      state: string | null;
      age_ms: number;
      wait: string | null;
      blocked_by: number[];
      query: string;
    }>(
      `select a.pid, a.application_name, a.state, (extract(epoch from now() - a.xact_start) * 1000)::int as age_ms,
              nullif(concat_ws(':', a.wait_event_type, a.wait_event), '') as wait,
              pg_blocking_pids(a.pid) as blocked_by, left(regexp_replace(a.query, '\\s+', ' ', 'g'), 120) as query
       from pg_stat_activity a
       where a.datname = current_database() and a.xact_start is not null and a.pid <> pg_backend_pid()
       order by a.xact_start limit 5`,
    );
    return rows
      .map(
        (r) =>
          `pid ${r.pid} (${r.application_name || 'unnamed'}) ${r.state ?? '?'} for ${r.age_ms} ms` +
          (r.wait ? `, waiting on ${r.wait}` : '') +
          (r.blocked_by.length > 0 ? ` behind pid ${r.blocked_by.join(', ')}` : '') +
          `: ${r.query}`,
      )
      .join('; ');
  }

  async close() {
    await this.pool.end();
  }
}

export interface DatabaseOptions {
  /** postgres:// URL: DATABASE_URL, or the embedded server's. */
  url: string;
  poolSize?: number;
  events?: ConnectionEvents;
  /** The modules' functions, applied by `migrate()` after infra's own (`routines.ts` at the application's root). */
  routines?: readonly Routine[];
  /** The application's bounds on waiting (DEFAULT_DATABASE_TIMEOUTS where not given). */
  timeouts?: Partial<DatabaseTimeouts>;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const routines = routinesScript(options.routines ?? []);
  return new PostgresDatabase(options.url, options.poolSize ?? 20, options.events ?? {}, routines, {
    ...DEFAULT_DATABASE_TIMEOUTS,
    ...options.timeouts,
  });
}
