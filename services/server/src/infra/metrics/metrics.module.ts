import { createServer, type Server } from 'node:http';
import {
  type DynamicModule,
  Global,
  Inject,
  Injectable,
  Logger,
  Module,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  Optional,
} from '@nestjs/common';
import { QueueName } from '@seatlink/contracts';
import { JOB_QUEUE, type JobQueue } from '../queue/queue.port.js';
import { RealtimeGateway } from '../realtime/realtime.gateway.js';
import { SubscriptionOperations } from '../subscriptions/subscription-operations.js';
import { ReadReplicas, type ReplicaState } from '../db/read-replicas.js';
import { Metrics } from './metrics.js';

export interface MetricsOptions {
  role: string;
  /** Where Prometheus scrapes; no server without a port (0: any free port). */
  port: number | undefined;
  host: string;
}

const METRICS_OPTIONS = Symbol('MetricsOptions');

/**
 * `/metrics` in Prometheus's text format on a port of its own (METRICS_PORT), away from the public API: what it shows
 * (routes, queue sizes, lags) is for operators, and a scraper needs no session.
 */
@Injectable()
export class MetricsServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Metrics');
  private server: Server | null = null;

  constructor(
    private readonly metrics: Metrics,
    @Inject(METRICS_OPTIONS) private readonly options: MetricsOptions,
    @Inject(JOB_QUEUE) queue: JobQueue,
    @Optional() @Inject(SubscriptionOperations) operations: SubscriptionOperations | null,
    @Optional() @Inject(RealtimeGateway) gateway: RealtimeGateway | null,
    @Optional() @Inject(ReadReplicas) replicas: ReadReplicas | null,
  ) {
    if (replicas?.enabled) {
      replicas.onRead = (target) => metrics.reads.inc({ target });
      const each = (value: (r: ReplicaState) => number | null) => () =>
        Promise.resolve(
          replicas.states().flatMap((r) => {
            const v = value(r);
            return v === null ? [] : [{ labels: { replica: r.name }, value: v }];
          }),
        );
      metrics.gauge(
        'seatlink_replica_lag_seconds',
        'Seconds since the last change a read replica replayed, while it is behind (0: caught up)',
        ['replica'],
        each((r) => r.lagSeconds),
      );
      metrics.gauge(
        'seatlink_replica_lag_bytes',
        "The primary's write-ahead log a read replica has not replayed yet",
        ['replica'],
        each((r) => r.lagBytes),
      );
      metrics.gauge(
        'seatlink_replica_in_use',
        'Whether a read replica serves reads (1) or is left out (0: not answering, or behind past the bound)',
        ['replica'],
        each((r) => (r.inUse ? 1 : 0)),
      );
    }
    if (operations) {
      const feed = () => operations.status();
      metrics.gauge(
        'seatlink_subscription_lag_events',
        'Events a subscription is behind the head of the feed',
        ['subscription'],
        async () => (await feed()).subscriptions.map((s) => ({ labels: { subscription: s.name }, value: s.lag })),
      );
      metrics.gauge(
        'seatlink_subscription_parked_events',
        'Events a subscription parked after failing',
        ['subscription'],
        async () => (await feed()).subscriptions.map((s) => ({ labels: { subscription: s.name }, value: s.parked })),
      );
    }
    metrics.gauge(
      'seatlink_queue_jobs',
      'Jobs by queue and state (failed: given up by this process)',
      ['queue', 'state'],
      async () => {
        const rows: Array<{ labels: { queue: string; state: string }; value: number }> = [];
        for (const name of Object.values(QueueName)) {
          const counts = await queue.counts(name);
          for (const [state, value] of Object.entries(counts) as Array<[string, number]>) {
            rows.push({ labels: { queue: name, state }, value });
          }
        }
        return rows;
      },
    );
    if (gateway) {
      metrics.gauge('seatlink_sockets_connected', 'Dashboards connected to this process', [], () =>
        Promise.resolve([{ labels: {}, value: gateway.server?.engine?.clientsCount ?? 0 }]),
      );
    }
  }

  /** The port it listens on (tests ask for any free one). */
  get port(): number | null {
    const address = this.server?.address();
    return address && typeof address === 'object' ? address.port : null;
  }

  async onApplicationBootstrap() {
    if (this.options.port === undefined) return;
    const registry = this.metrics.registry;
    this.server = createServer((req, res) => {
      if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
        return;
      }
      registry
        .metrics()
        .then((text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text))
        .catch((err: unknown) => {
          this.logger.warn(`metrics not read: ${err instanceof Error ? err.message : String(err)}`);
          res.writeHead(500, { 'content-type': 'text/plain' }).end('Metrics could not be read');
        });
    });
    const server = this.server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.options.port, this.options.host, () => resolve());
    });
    this.logger.log(`metrics at http://${this.options.host}:${this.port}/metrics`);
  }

  async onApplicationShutdown() {
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

@Global()
@Module({})
export class MetricsModule {
  static forRoot(options: MetricsOptions): DynamicModule {
    return {
      module: MetricsModule,
      providers: [
        { provide: METRICS_OPTIONS, useValue: options },
        { provide: Metrics, useFactory: () => new Metrics(options.role) },
        MetricsServer,
      ],
      exports: [Metrics, MetricsServer],
    };
  }
}
