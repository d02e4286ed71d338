import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '../infra/db/embedded/embedded-postgres.js';

/**
 * Chooses the real services for the integration suites:
 * - the embedded PostgreSQL server `npm start` runs (the same package, binaries and settings), started here for the
 *   whole run in a directory of its own: the suites that compare the embedded default with PostgreSQL run on it, and
 *   with no DATABASE_URL every suite does;
 * - DATABASE_URL / REDIS_URL when set (CI sets both);
 * - otherwise a Redis in a container when a Docker engine answers, else the Redis-only suites are skipped (said
 *   below).
 * With CI=true, running without a PostgreSQL of DATABASE_URL and a Redis is an error: nothing may be skipped there.
 */
export default async function setup(project: TestProject) {
  const stops: Array<() => Promise<unknown>> = [];
  const dataDir = await mkdtemp(path.join(tmpdir(), 'seatlink-test-pg-'));
  // As root the server runs as the postgres user, which must reach its directory.
  await chmod(dataDir, 0o755);
  const embedded = await startEmbeddedPostgres({
    dataDir,
    // Two test files at a time, each with several stacks of 20 connections, and the suites' own clients.
    maxConnections: 400,
    log: (level, line) => level !== 'log' && console.warn(`[embedded PostgreSQL] ${line}`),
  });
  stops.push(async () => {
    await embedded.stop();
    await rm(dataDir, { recursive: true, force: true });
  });
  process.env.SEATLINK_TEST_EMBEDDED_URL = embedded.url;
  if (process.env.CI === 'true' && (!process.env.DATABASE_URL || !process.env.REDIS_URL)) {
    throw new Error('CI needs real PostgreSQL and Redis: set DATABASE_URL and REDIS_URL.');
  }
  if (!process.env.DATABASE_URL) {
    process.env.DATABASE_URL = embedded.url;
    console.warn(`[${project.name}] no DATABASE_URL: every suite runs on the embedded PostgreSQL server`);
  }
  if (!process.env.REDIS_URL && (await dockerAnswers())) {
    const { RedisContainer } = await import('@testcontainers/redis');
    const rc = await new RedisContainer('redis:7-alpine').start();
    process.env.REDIS_URL = rc.getConnectionUrl();
    stops.push(() => rc.stop());
  }
  if (!process.env.REDIS_URL) {
    console.warn(`[${project.name}] skipped, no server: Redis suites (BullMQ queue, socket.io Redis adapter)`);
  }
  if (!process.env.KURRENTDB_URL)
    console.warn(`[${project.name}] skipped: KurrentDB contract suite (no KURRENTDB_URL)`);
  project.provide('databaseUrl', process.env.DATABASE_URL);
  return async () => {
    for (const stop of stops.reverse()) await stop();
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
