import { Global, Inject, Logger, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import path from 'node:path';
import type { AppConfig } from '../config/config.js';
import { EVENT_STORE, type EventStore } from '../event-store/event-store.port.js';
import { SqlEventStore } from '../event-store/sql-event-store.js';
import { type Database, openDatabase, type Routine } from './database.js';
import { ProcessLiveness } from './process-liveness.js';

export const DATABASE = Symbol('Database');

class DatabaseCloser implements OnApplicationShutdown {
  constructor(
    @Inject(DATABASE) private readonly database: Database,
    @Inject(EVENT_STORE) private readonly store: EventStore,
  ) {}

  async onApplicationShutdown() {
    await this.store.close();
    await this.database.close();
  }
}

/** The database (PostgreSQL or embedded PGlite), migrated on start, and the event store on top of it. */
@Global()
@Module({})
export class DatabaseModule {
  static forRoot(config: AppConfig, routines: readonly Routine[]): DynamicModule {
    return {
      module: DatabaseModule,
      providers: [
        {
          provide: DATABASE,
          useFactory: async () => {
            const logger = new Logger('Database');
            // DATA_DIR=memory:// keeps an embedded database in memory only (tests).
            const dataDir = config.DATA_DIR === 'memory://' ? undefined : path.join(config.DATA_DIR, 'pglite');
            const database = await openDatabase({ url: config.DATABASE_URL, dataDir, routines });
            await database.migrate();
            logger.log(config.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${dataDir ?? 'memory'}`);
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
        DatabaseCloser,
        {
          provide: ProcessLiveness,
          inject: [DATABASE],
          useFactory: (database: Database) => new ProcessLiveness(database),
        },
      ],
      exports: [DATABASE, EVENT_STORE, ProcessLiveness],
    };
  }
}
