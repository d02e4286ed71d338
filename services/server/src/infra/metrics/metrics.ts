import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * The process's Prometheus metrics (prom-client): Node's own (event loop lag, heap, GC), HTTP latency by route, link
 * clicks counted; gauges that are read when scraped (subscription lags, parked events, queues, sockets) are added by
 * whoever knows them, through `gauge`.
 */
export class Metrics {
  readonly registry = new Registry();
  readonly httpDuration: Histogram<'method' | 'route' | 'status_code'>;
  readonly linkClicks: Counter;
  readonly jobRuns: Counter<'queue' | 'job' | 'outcome'>;
  readonly redisBreakerOpenings: Counter<'client'>;
  readonly redisBreakerRejections: Counter<'client'>;
  readonly reads: Counter<'target'>;

  constructor(role: string) {
    this.registry.setDefaultLabels({ role });
    collectDefaultMetrics({ register: this.registry, prefix: 'seatlink_' });
    this.httpDuration = new Histogram({
      name: 'seatlink_http_request_duration_seconds',
      help: 'HTTP answers by route (the route pattern, not the path), method and status code',
      labelNames: ['method', 'route', 'status_code'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [this.registry],
    });
    this.linkClicks = new Counter({
      name: 'seatlink_link_clicks_total',
      help: 'Clicks counted on distribution links (claims let through)',
      registers: [this.registry],
    });
    this.jobRuns = new Counter({
      name: 'seatlink_job_runs_total',
      help: 'Job runs in this process by queue, job and outcome (a failed try counts, retried or not)',
      labelNames: ['queue', 'job', 'outcome'],
      registers: [this.registry],
    });
    this.redisBreakerOpenings = new Counter({
      name: 'seatlink_redis_breaker_openings_total',
      help: 'Times a Redis client of this process found Redis hung (a command timed out) and its breaker opened',
      labelNames: ['client'],
      registers: [this.registry],
    });
    this.reads = new Counter({
      name: 'seatlink_reads_total',
      help: 'Reads of the read routes by where they ran: a read replica, or the primary (none fresh enough, or none)',
      labelNames: ['target'],
      registers: [this.registry],
    });
    this.redisBreakerRejections = new Counter({
      name: 'seatlink_redis_breaker_rejections_total',
      help: 'Redis calls a breaker failed at once, unsent, while it was open',
      labelNames: ['client'],
      registers: [this.registry],
    });
  }

  /** A gauge whose values are read at each scrape; a failing read leaves the gauge empty for that scrape. */
  gauge<L extends string>(
    name: string,
    help: string,
    labelNames: readonly L[],
    read: () => Promise<Array<{ labels: Record<L, string>; value: number }>>,
  ): void {
    new Gauge<L>({
      name,
      help,
      labelNames,
      registers: [this.registry],
      async collect() {
        this.reset();
        const values = await read().catch(() => []);
        for (const { labels, value } of values) this.set(labels as Partial<Record<L, string>>, value);
      },
    });
  }
}
