import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import type { ExtractTablesWithRelations, SQL } from 'drizzle-orm';
import pg from 'pg';
import * as schema from './schema.js';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Anything that runs queries: the database or an open transaction. */
export type Executor = Db | Tx;

const MIGRATIONS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../drizzle');

/** Rows of a raw `execute` result; node-postgres and PGlite both answer `{ rows }`. */
export async function queryRows<T>(executor: Executor, query: SQL): Promise<T[]> {
  const result = (await executor.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/** A held lock; release gives it back. */
export interface HeldLock {
  release(): Promise<void>;
}

/**
 * The relational database: PostgreSQL over `pg` when a URL is given, embedded PGlite otherwise.
 * Both speak the same SQL, so every adapter above this class is written once.
 */
export interface Database {
  readonly kind: 'postgres' | 'pglite';
  readonly db: Db;
  /** Calls `handler` for every NOTIFY on `channel` until the returned function is called. */
  listen(channel: string, handler: (payload: string) => void): Promise<() => Promise<void>>;
  /** Session-level advisory lock held on a dedicated connection; null when another holder has it. */
  tryAdvisoryLock(key: number): Promise<HeldLock | null>;
  migrate(): Promise<void>;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

class PostgresDatabase implements Database {
  readonly kind = 'postgres' as const;
  readonly db: Db;
  private readonly pool: pg.Pool;

  constructor(url: string, poolSize: number) {
    this.pool = new pg.Pool({ connectionString: url, max: poolSize });
    // An idle client that loses its connection must not crash the process.
    this.pool.on('error', () => undefined);
    this.db = drizzlePg(this.pool, { schema }) as unknown as Db;
  }

  async listen(channel: string, handler: (payload: string) => void) {
    const client = await this.pool.connect();
    const onNotification = (msg: pg.Notification) => {
      if (msg.channel === channel) handler(msg.payload ?? '');
    };
    client.on('notification', onNotification);
    await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    return async () => {
      client.off('notification', onNotification);
      try {
        await client.query(`UNLISTEN ${pg.escapeIdentifier(channel)}`);
      } finally {
        client.release();
      }
    };
  }

  async tryAdvisoryLock(key: number): Promise<HeldLock | null> {
    const client = await this.pool.connect();
    try {
      const res = await client.query<{ locked: boolean }>('select pg_try_advisory_lock($1) as locked', [key]);
      if (!res.rows[0]?.locked) {
        client.release();
        return null;
      }
    } catch (err) {
      client.release();
      throw err;
    }
    return {
      release: async () => {
        try {
          await client.query('select pg_advisory_unlock($1)', [key]);
        } finally {
          client.release();
        }
      },
    };
  }

  async migrate() {
    // Serialise migrations across processes that start together (api + worker).
    const client = await this.pool.connect();
    try {
      await client.query('select pg_advisory_lock(7310001)');
      await migratePg(drizzlePg(client), { migrationsFolder: MIGRATIONS });
    } finally {
      await client.query('select pg_advisory_unlock(7310001)').catch(() => undefined);
      client.release();
    }
  }

  async ping() {
    try {
      await this.pool.query('select 1');
      return true;
    } catch {
      return false;
    }
  }

  async close() {
    await this.pool.end();
  }
}

class PgliteDatabase implements Database {
  readonly kind = 'pglite' as const;
  readonly db: Db;
  private readonly locks = new Set<number>();

  constructor(private readonly client: PGlite) {
    this.db = drizzlePglite(client, { schema }) as unknown as Db;
  }

  async listen(channel: string, handler: (payload: string) => void) {
    return this.client.listen(channel, handler);
  }

  // One process owns a PGlite database, so an in-process lock table is the advisory lock.
  async tryAdvisoryLock(key: number): Promise<HeldLock | null> {
    if (this.locks.has(key)) return null;
    this.locks.add(key);
    return { release: async () => void this.locks.delete(key) };
  }

  async migrate() {
    await migratePglite(drizzlePglite(this.client), { migrationsFolder: MIGRATIONS });
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

export interface DatabaseOptions {
  /** postgres:// URL; without it the database is embedded PGlite. */
  url?: string;
  /** Directory for PGlite's files; in memory when absent. */
  dataDir?: string;
  poolSize?: number;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.url) return new PostgresDatabase(options.url, options.poolSize ?? 20);
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const client = await PGlite.create(options.dataDir);
  return new PgliteDatabase(client);
}
