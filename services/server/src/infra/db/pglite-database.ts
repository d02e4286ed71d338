import { PGlite, type QueryOptions, type Results, type Transaction } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { currentRequestId } from '../logging/app-logger.js';
import type { Database, Db, HeldLock } from './database.js';

/**
 * PGlite, taking turns fairly. It runs each statement synchronously in this process and resolves its promise at once,
 * so a chain of statements (the subscriptions' batches, a sync's appends) would run from one microtask to the next
 * and the event loop would serve no request until all were done: under a 5,000-pass sync, `GET /v1/tickets` waited
 * for tens of seconds. Here every statement and transaction begun from outside waits for its turn: one at a time, each
 * begun in a turn of the event loop of its own (so requests are read and answers written between any two), and those
 * asked for by a request before those of the background (subscriptions, jobs), which only wait a little longer.
 * The statements inside a transaction run on as they are: the transaction holds the database until it ends.
 */
class FairPGlite extends PGlite {
  private readonly requests: Array<() => void> = [];
  private readonly background: Array<() => void> = [];
  private busy = false;
  private dispatching = false;

  override query<T>(query: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> {
    return this.inTurn(() => super.query<T>(query, params, options));
  }

  override exec(query: string, options?: QueryOptions): Promise<Array<Results>> {
    return this.inTurn(() => super.exec(query, options));
  }

  override transaction<T>(callback: (tx: Transaction) => Promise<T>): Promise<T> {
    return this.inTurn(() => super.transaction(callback));
  }

  private async inTurn<T>(work: () => Promise<T>): Promise<T> {
    await new Promise<void>((resolve) => {
      (currentRequestId() === undefined ? this.background : this.requests).push(resolve);
      this.dispatch();
    });
    try {
      return await work();
    } finally {
      this.busy = false;
      this.dispatch();
    }
  }

  /** Starts the next waiting statement in the next turn of the event loop, when none is under way. */
  private dispatch() {
    if (this.busy || this.dispatching) return;
    this.dispatching = true;
    setImmediate(() => {
      this.dispatching = false;
      if (this.busy) return;
      const next = this.requests.shift() ?? this.background.shift();
      if (!next) return;
      this.busy = true;
      next();
    });
  }
}

/** The embedded database: PGlite in this process, on disk in `dataDir` or in memory. */
class PgliteDatabase implements Database {
  readonly kind = 'pglite' as const;
  readonly db: Db;
  private readonly locks = new Set<number>();

  constructor(
    private readonly client: PGlite,
    private readonly routines: string,
    private readonly migrations: string,
  ) {
    this.db = drizzlePglite(client);
  }

  async query<T>(text: string, params: readonly unknown[] = []): Promise<T[]> {
    return (await this.client.query<T>(text, params as unknown[])).rows;
  }

  /** One process owns a PGlite database: every NOTIFY was sent from here. */
  async listen(channel: string, handler: (payload: string, fromHere: boolean) => void) {
    return this.client.listen(channel, (payload) => handler(payload, true));
  }

  // One process owns a PGlite database, so an in-process lock table is the advisory lock (never lost).
  async tryAdvisoryLock(key: number): Promise<HeldLock | null> {
    if (this.locks.has(key)) return null;
    this.locks.add(key);
    return { lost: new Promise<void>(() => undefined), release: async () => void this.locks.delete(key) };
  }

  async migrate() {
    await migratePglite(drizzlePglite(this.client), { migrationsFolder: this.migrations });
    await this.client.exec(this.routines).catch(async (err: unknown) => {
      await this.client.exec('ROLLBACK').catch(() => undefined);
      throw err;
    });
    await this.client.query('select seatlink_rebase_if_restored()');
  }

  async ping() {
    try {
      await this.client.query('select 1');
      return true;
    } catch {
      return false;
    }
  }

  async close() {
    await this.client.close();
  }
}

/** Opens the embedded database (`dataDir` absent: in memory) with the routines script and migrations to apply. */
export async function openPglite(dataDir: string | undefined, routines: string, migrations: string): Promise<Database> {
  const client = new FairPGlite(dataDir);
  await client.waitReady;
  return new PgliteDatabase(client, routines, migrations);
}
