import {
  type DynamicModule,
  Global,
  Inject,
  Injectable,
  Logger,
  Module,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { readModels } from '../../read-models.js';
import { DATABASE } from '../db/database.module.js';
import type { Database } from '../db/database.js';
import { EVENT_STORE, type EventStore } from '../event-store/event-store.port.js';
import { REALTIME_PUBLISHER, type RealtimePublisher } from '../realtime/realtime.publisher.js';
import { ProjectionWaiter } from './projection-waiter.js';
import { Projector } from './projector.js';

@Injectable()
export class ProjectorRunner implements OnApplicationBootstrap, OnApplicationShutdown {
  readonly projector: Projector;
  private readonly logger = new Logger('Projector');

  constructor(
    @Inject(DATABASE) database: Database,
    @Inject(EVENT_STORE) store: EventStore,
    @Inject(REALTIME_PUBLISHER) publisher: RealtimePublisher,
  ) {
    this.projector = new Projector(database, store, readModels, {
      onLive: (updates) => publisher.publish(updates),
      onError: (err) => this.logger.error(err instanceof Error ? (err.stack ?? err.message) : String(err)),
    });
  }

  onApplicationBootstrap() {
    this.projector.start();
  }

  async onApplicationShutdown() {
    await this.projector.stop();
  }
}

/** Read-your-writes for every process; the projector itself only where `runProjector` is set. */
@Global()
@Module({})
export class ProjectionsModule {
  static forRoot(options: { runProjector: boolean }): DynamicModule {
    return {
      module: ProjectionsModule,
      providers: [ProjectionWaiter, ...(options.runProjector ? [ProjectorRunner] : [])],
      exports: [ProjectionWaiter],
    };
  }
}
