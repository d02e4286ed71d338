import { Global, Inject, Injectable, Logger, Module, type OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { Metrics } from '../metrics/metrics.js';
import { type BreakerClient, type BreakerState, RedisBreaker } from './redis-breaker.js';

const STATES: readonly BreakerState[] = ['closed', 'open', 'half-open'];

/**
 * The circuit breakers of this process's Redis clients on request paths (throttles, the provider's pace, job adds):
 * each client gets one (`guard`), with the process's settings (REDIS_BREAKER_OPEN_MS, REDIS_COMMAND_TIMEOUT_MS).
 * What they say is in `/v1/admin/health` (a breaker not closed makes the deployment degraded) and in `/metrics`
 * (`seatlink_redis_breaker_state`, `…_openings_total`, `…_rejections_total`, by client).
 */
@Injectable()
export class RedisBreakers implements OnApplicationShutdown {
  private readonly logger = new Logger('Redis');
  private readonly breakers: RedisBreaker[] = [];

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly metrics: Metrics,
  ) {
    metrics.gauge(
      'seatlink_redis_breaker_state',
      "State of each Redis client's circuit breaker: 1 for the state it is in (closed, open, half-open), 0 otherwise",
      ['client', 'state'],
      () =>
        Promise.resolve(
          this.states().flatMap(({ client, state }) =>
            STATES.map((s) => ({ labels: { client, state: s }, value: s === state ? 1 : 0 })),
          ),
        ),
    );
  }

  /** Puts a breaker in front of every command `client` sends; answers the client. */
  guard<C extends BreakerClient>(client: C, role: string): C {
    this.breakers.push(
      new RedisBreaker(client, {
        role,
        openMs: this.config.REDIS_BREAKER_OPEN_MS,
        timeoutMs: this.config.REDIS_COMMAND_TIMEOUT_MS,
        logger: this.logger,
        onOpen: () => this.metrics.redisBreakerOpenings.inc({ client: role }),
        onReject: () => this.metrics.redisBreakerRejections.inc({ client: role }),
      }),
    );
    return client;
  }

  /** Each guarded client's breaker, by the client's role. */
  states(): Array<{ client: string; state: BreakerState }> {
    return this.breakers.map((b) => ({ client: b.role, state: b.state }));
  }

  onApplicationShutdown() {
    for (const breaker of this.breakers) breaker.shutdown();
  }
}

/** The breakers (RedisBreakers), for every module that makes a Redis client a request waits on. */
@Global()
@Module({ providers: [RedisBreakers], exports: [RedisBreakers] })
export class RedisModule {}
