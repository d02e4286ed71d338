import type { TestProject } from 'vitest/node';

/**
 * Chooses the real services for the integration suites:
 * - DATABASE_URL / REDIS_URL when set (CI sets both);
 * - otherwise testcontainers, when a Docker engine answers;
 * - otherwise embedded PGlite and the in-process queue, and the Redis-only suites are skipped (said below).
 * With CI=true, running without real PostgreSQL and Redis is an error: nothing may be skipped there.
 */
export default async function setup(project: TestProject) {
  const stops: Array<() => Promise<unknown>> = [];
  if (!process.env.DATABASE_URL || !process.env.REDIS_URL) {
    const engine = await dockerAnswers();
    if (engine) {
      const { PostgreSqlContainer } = await import('@testcontainers/postgresql');
      const { RedisContainer } = await import('@testcontainers/redis');
      if (!process.env.DATABASE_URL) {
        const pgc = await new PostgreSqlContainer('postgres:16-alpine').start();
        process.env.DATABASE_URL = pgc.getConnectionUri();
        stops.push(() => pgc.stop());
      }
      if (!process.env.REDIS_URL) {
        const rc = await new RedisContainer('redis:7-alpine').start();
        process.env.REDIS_URL = rc.getConnectionUrl();
        stops.push(() => rc.stop());
      }
    }
  }
  if (process.env.CI === 'true' && (!process.env.DATABASE_URL || !process.env.REDIS_URL)) {
    throw new Error('CI needs real PostgreSQL and Redis: set DATABASE_URL and REDIS_URL.');
  }
  const missing = [
    !process.env.DATABASE_URL && 'PostgreSQL suites (running on PGlite instead)',
    !process.env.REDIS_URL && 'Redis suites (BullMQ queue, socket.io Redis adapter)',
  ].filter(Boolean);
  if (missing.length > 0) console.warn(`[${project.name}] skipped, no server: ${missing.join('; ')}`);
  if (!process.env.KURRENTDB_URL)
    console.warn(`[${project.name}] skipped: KurrentDB contract suite (no KURRENTDB_URL)`);
  project.provide('databaseUrl', process.env.DATABASE_URL ?? '');
  return async () => {
    for (const stop of stops) await stop();
  };
}

async function dockerAnswers(): Promise<boolean> {
  try {
    const { getContainerRuntimeClient } = await import('testcontainers');
    await getContainerRuntimeClient();
    return true;
  } catch {
    return false;
  }
}

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
  }
}
