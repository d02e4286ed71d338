import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type Database, openDatabase } from '../infra/db/database.js';
import { MODULE_ROUTINES } from '../routines.js';

/** Which real services this test run has (set up by vitest's global setup). */
export const testEnv = {
  databaseUrl: process.env.DATABASE_URL,
  redisUrl: process.env.REDIS_URL,
};

export interface TestDatabase {
  database: Database;
  /** The URL of the fresh database, or undefined on PGlite. */
  url?: string;
  dispose: () => Promise<void>;
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** A fresh URL of an empty PostgreSQL database of its own, so parallel runs never collide. */
export async function createScratchDatabase(baseUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `seatlink_t_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  return {
    url: withDatabase(baseUrl, name),
    drop: async () => {
      const c = new pg.Client({ connectionString: baseUrl });
      await c.connect();
      try {
        await c.query(`drop database if exists ${name} with (force)`);
      } finally {
        await c.end();
      }
    },
  };
}

/**
 * A migrated, empty database for one test file: a database of its own on the real PostgreSQL when
 * DATABASE_URL is set, in-memory PGlite otherwise.
 */
export async function createTestDatabase(options: { poolSize?: number } = {}): Promise<TestDatabase> {
  if (testEnv.databaseUrl) {
    const scratch = await createScratchDatabase(testEnv.databaseUrl);
    const database = await openDatabase({
      url: scratch.url,
      poolSize: options.poolSize ?? 20,
      routines: MODULE_ROUTINES,
    });
    await database.migrate();
    return {
      database,
      url: scratch.url,
      dispose: async () => {
        await database.close();
        await scratch.drop();
      },
    };
  }
  const database = await openDatabase({ routines: MODULE_ROUTINES });
  await database.migrate();
  return { database, dispose: () => database.close() };
}

/** Describes which backend a suite runs on, for test names. */
export const backendName = () => (testEnv.databaseUrl ? 'PostgreSQL' : 'PGlite');
