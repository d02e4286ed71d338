import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type Database, openDatabase } from '../infra/db/database.js';
import { MODULE_ROUTINES } from '../routines.js';

/** Which real services this test run has (set up by vitest's global setup, `global-setup.ts`). */
export const testEnv = {
  /** PostgreSQL: DATABASE_URL, or the embedded server when it is unset. */
  databaseUrl: process.env.DATABASE_URL!,
  /** The embedded PostgreSQL server of `npm start`, started for the run. */
  embeddedUrl: process.env.SEATLINK_TEST_EMBEDDED_URL!,
  redisUrl: process.env.REDIS_URL,
};

export interface TestDatabase {
  database: Database;
  /** The URL of the fresh database. */
  url: string;
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
 * A migrated, empty database of its own for one test file: on the PostgreSQL of the run, or with `embedded` on the
 * embedded server `npm start` runs.
 */
export async function createTestDatabase(
  options: { poolSize?: number; embedded?: boolean } = {},
): Promise<TestDatabase> {
  const scratch = await createScratchDatabase(options.embedded ? testEnv.embeddedUrl : testEnv.databaseUrl);
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

/**
 * The two servers a suite that compares them runs on: the PostgreSQL of the run (DATABASE_URL) and the embedded one
 * (`npm start`'s default), by name; one when they are the same.
 */
export function testBackends(): Array<[name: string, embedded: boolean]> {
  return testEnv.databaseUrl === testEnv.embeddedUrl
    ? [['embedded PostgreSQL', true]]
    : [
        ['PostgreSQL', false],
        ['embedded PostgreSQL', true],
      ];
}
