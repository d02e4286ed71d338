import { Global, Inject, Logger, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import path from 'node:path';
import type { AppConfig } from '../config/config.js';
import { EVENT_STORE, type EventStore } from '../event-store/event-store.port.js';
import { SqlEventStore } from '../event-store/sql-event-store.js';
import { type Database, openDatabase, type Routine } from './database.js';
import { type EmbeddedPostgresServer, startEmbeddedPostgres } from './embedded/embedded-postgres.js';
import { DatabaseClock } from './database-clock.js';
import { ProcessLiveness } from './process-liveness.js';
import { setBusyDescriber } from './timeout-report.js';
import type { Redis } from 'ioredis';
import { createRedis } from '../redis/redis-client.js';
import { ReadFloors } from './read-floors.js';
import { ReadReplicas } from './read-replicas.js';

export const DATABASE = Symbol('Database');
/** The embedded PostgreSQL server this process runs or shares; null with DATABASE_URL. */
export const EMBEDDED_SERVER = Symbol('EmbeddedServer');

/** The Redis client the readers' floors are shared through (read-floors.ts); null without replicas or Redis. */
const READ_FLOORS_REDIS = Symbol('ReadFloorsRedis');

class DatabaseCloser implements OnApplicationShutdown {
  constructor(
    @Inject(DATABASE) private readonly database: Database,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly clock: DatabaseClock,
    private readonly replicas: ReadReplicas,
    @Inject(READ_FLOORS_REDIS) private readonly floorsRedis: Redis | null,
  ) {}

  async onApplicationShutdown() {
    this.clock.stop();
    await this.replicas.close();
    this.floorsRedis?.disconnect();
    await this.store.close();
    await this.database.close();
  }
}

/**
 * The server of DATABASE_URL, or without it the embedded one under DATA_DIR: either way PostgreSQL, reached through
 * the same pool. The embedded server stops when this process has ended (its host hears the process go), after every
 * module has closed its connections — not in a shutdown hook, which would run before some of theirs.
 */
async function databaseServer(config: AppConfig): Promise<EmbeddedPostgresServer | null> {
  if (config.DATABASE_URL) return null;
  if (config.DATA_DIR === 'memory://') {
    throw new Error('DATA_DIR=memory:// keeps no files: the embedded database needs DATA_DIR on disk, or DATABASE_URL');
  }
  const logger = new Logger('Database');
  const began = Date.now();
  const server = await startEmbeddedPostgres({
    dataDir: config.DATA_DIR,
    log: (level, line) => logger[level](`PostgreSQL: ${line}`),
  });
  logger.log(
    server.owner
      ? `embedded PostgreSQL in ${path.join(config.DATA_DIR, 'postgres')} (started in ${Date.now() - began} ms)`
      : `embedded PostgreSQL in ${path.join(config.DATA_DIR, 'postgres')}, run by another process of this DATA_DIR`,
  );
  return server;
}

/** The database (PostgreSQL, of DATABASE_URL or embedded), migrated on start, and the event store on top of it. */
@Global()
@Module({})
export class DatabaseModule {
  static forRoot(config: AppConfig, routines: readonly Routine[]): DynamicModule {
    // The bounds of every wait for the database, the primary's and the replicas' connections alike.
    const timeouts = {
      statementMs: config.DB_STATEMENT_TIMEOUT_MS,
      lockMs: config.DB_LOCK_TIMEOUT_MS,
      idleInTransactionMs: config.DB_IDLE_IN_TRANSACTION_TIMEOUT_MS,
      connectMs: config.DB_CONNECT_TIMEOUT_MS,
    };
    return {
      module: DatabaseModule,
      providers: [
        { provide: EMBEDDED_SERVER, useFactory: () => databaseServer(config) },
        {
          provide: DATABASE,
          inject: [EMBEDDED_SERVER],
          useFactory: async (embedded: EmbeddedPostgresServer | null) => {
            const database = await openDatabase({
              url: embedded?.url ?? config.DATABASE_URL!,
              routines,
              timeouts,
            });
            try {
              await database.migrate();
            } catch (err) {
              await database.close().catch(() => undefined);
              await embedded?.stop();
              throw err;
            }
            if (!embedded) new Logger('Database').log('PostgreSQL (DATABASE_URL)');
            // A statement that times out is logged with what held the database then.
            setBusyDescriber(() => database.describeBusy());
            return database;
          },
        },
        {
          provide: EVENT_STORE,
          inject: [DATABASE],
          useFactory: async (database: Database): Promise<EventStore> => {
            if (config.KURRENTDB_URL) {
              const { KurrentDbEventStore } = await import('../event-store/kurrentdb-event-store.js');
              new Logger('EventStore').log('events in KurrentDB (KURRENTDB_URL)');
              return new KurrentDbEventStore(config.KURRENTDB_URL);
            }
            return new SqlEventStore(database);
          },
        },
        {
          // The process's clock for what decides money and access (shared/clock.ts), read from the database.
          provide: DatabaseClock,
          inject: [DATABASE],
          useFactory: async (database: Database) => {
            const clock = new DatabaseClock(database);
            await clock.start();
            return clock;
          },
        },
        {
          provide: READ_FLOORS_REDIS,
          useFactory: () =>
            config.DATABASE_READ_URL.length > 0 && config.REDIS_URL
              ? createRedis(config.REDIS_URL, 'commands', {
                  role: 'read floors',
                  commandTimeoutMs: config.REDIS_COMMAND_TIMEOUT_MS,
                })
              : null,
        },
        {
          // Streaming replicas for the read routes (DATABASE_READ_URL); none configured: every read is the primary's.
          provide: ReadReplicas,
          inject: [DATABASE, READ_FLOORS_REDIS],
          useFactory: async (database: Database, redis: Redis | null) => {
            // A floor outlives any lag a replica in use may have, many times over.
            const floors = new ReadFloors(
              redis,
              config.REDIS_PREFIX,
              Math.max(60_000, config.DATABASE_READ_MAX_LAG_MS * 10),
            );
            const replicas = new ReadReplicas(database, floors, {
              urls: config.DATABASE_READ_URL,
              timeouts,
              maxLagMs: config.DATABASE_READ_MAX_LAG_MS,
              pollMs: config.DATABASE_READ_POLL_MS,
              poolSize: 10,
            });
            await replicas.start();
            if (replicas.enabled) {
              new Logger('Database').log(`${config.DATABASE_READ_URL.length} read replica(s) (DATABASE_READ_URL)`);
            }
            return replicas;
          },
        },
        DatabaseCloser,
        {
          provide: ProcessLiveness,
          inject: [DATABASE],
          useFactory: (database: Database) => new ProcessLiveness(database),
        },
      ],
      exports: [DATABASE, EVENT_STORE, EMBEDDED_SERVER, DatabaseClock, ProcessLiveness, ReadReplicas],
    };
  }
}
