import {
  type DynamicModule,
  Global,
  Inject,
  Injectable,
  Logger,
  Module,
  type OnApplicationBootstrap,
  type BeforeApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import { DiscoveryModule, DiscoveryService } from '@nestjs/core';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { DATABASE } from '../db/database.module.js';
import type { Database } from '../db/database.js';
import { EVENT_STORE, type EventStore } from '../event-store/event-store.port.js';
import { REALTIME_PUBLISHER, type RealtimePublisher } from '../realtime/realtime.publisher.js';
import { ReadModelWaiter } from './read-model-waiter.js';
import { findSubscriptions, type Subscription } from './subscription.js';
import { SubscriptionHost } from './subscription-host.js';
import { SubscriptionOperations } from './subscription-operations.js';

/** Every subscription the feature modules provide (found among their providers once the modules are built). */
@Injectable()
export class SubscriptionRegistry implements OnModuleInit {
  private found: Subscription[] | null = null;

  constructor(private readonly discovery: DiscoveryService) {}

  onModuleInit() {
    this.all();
  }

  all(): readonly Subscription[] {
    this.found ??= findSubscriptions(this.discovery);
    return this.found;
  }

  projections() {
    return this.all().filter((s) => s.kind === 'projection');
  }
}

/** Runs the subscriptions in a process that may (`npm start`'s single process, a worker): takes the lock or stands by. */
@Injectable()
export class SubscriptionHostService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Subscriptions');
  host: SubscriptionHost | null = null;

  constructor(
    @Inject(DATABASE) private readonly database: Database,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(REALTIME_PUBLISHER) private readonly publisher: RealtimePublisher,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly registry: SubscriptionRegistry,
    private readonly waiter: ReadModelWaiter,
  ) {}

  onApplicationBootstrap() {
    this.host = new SubscriptionHost(this.database, this.store, this.registry.all(), {
      retry: { attempts: this.config.SUBSCRIPTION_RETRY_ATTEMPTS, initialMs: this.config.SUBSCRIPTION_RETRY_MS },
      pollMs: this.config.SUBSCRIPTION_POLL_MS,
      heartbeatMs: this.config.SUBSCRIPTION_HEARTBEAT_MS,
      onLive: (updates) => this.publisher.publish(updates),
      onAdvanced: () => this.waiter.nudge(),
      logger: this.logger,
    });
    this.host.start();
  }

  /** Stops before the transports close (socket.io and its Redis clients close between the two shutdown hooks). */
  async beforeApplicationShutdown() {
    await this.host?.stop();
  }
}

/**
 * Subscriptions: the registry of every read model and reaction, read-your-writes for every process, operations
 * (health, parked events, rebuilds), and the host that runs them where `runHost` is set.
 */
@Global()
@Module({})
export class SubscriptionsModule {
  static forRoot(options: { runHost: boolean }): DynamicModule {
    return {
      module: SubscriptionsModule,
      imports: [DiscoveryModule],
      providers: [
        SubscriptionRegistry,
        {
          provide: ReadModelWaiter,
          inject: [DATABASE, EVENT_STORE, SubscriptionRegistry, APP_CONFIG],
          useFactory: (database: Database, store: EventStore, registry: SubscriptionRegistry, config: AppConfig) =>
            new ReadModelWaiter(database, store, () => registry.all(), config.READ_MODEL_WAIT_MS),
        },
        {
          provide: SubscriptionOperations,
          inject: [DATABASE, EVENT_STORE, SubscriptionRegistry, REALTIME_PUBLISHER, APP_CONFIG],
          useFactory: (
            database: Database,
            store: EventStore,
            registry: SubscriptionRegistry,
            publisher: RealtimePublisher,
            config: AppConfig,
          ) =>
            new SubscriptionOperations(
              database,
              store,
              () => registry.all(),
              (u) => publisher.publish(u),
              {
                lagEvents: config.HEALTH_MAX_LAG_EVENTS,
                hostSilentSeconds: config.HEALTH_HOST_SILENT_SECONDS,
                oldestTransactionSeconds: config.HEALTH_MAX_TRANSACTION_SECONDS,
                heldBackSeconds: config.HEALTH_FEED_STALL_SECONDS,
              },
            ),
        },
        ...(options.runHost ? [SubscriptionHostService] : []),
      ],
      exports: [SubscriptionRegistry, ReadModelWaiter, SubscriptionOperations],
    };
  }
}
