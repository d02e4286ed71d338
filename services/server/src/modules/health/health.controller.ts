import { Controller, Get, Inject, Optional, Req } from '@nestjs/common';
import type { HealthResponse } from '@seatlink/contracts';
import type { FastifyRequest } from 'fastify';
import { DATABASE } from '../../infra/db/database.module.js';
import type { Database } from '../../infra/db/database.js';
import { overrideStatus } from '../../infra/http/response-status.js';
import { SubscriptionOperations } from '../../infra/subscriptions/subscription-operations.js';
import { REDIS_HEALTH, type RedisHealth } from './redis-health.js';
import { Public } from '../identity/auth.decorators.js';

/** The health checks behind `/health` (public: the status only) and `/v1/admin/health` (admins: every figure). */
export async function checkHealth(
  database: Database,
  redis: RedisHealth | null,
  operations: SubscriptionOperations,
): Promise<HealthResponse> {
  const databaseUp = await database.ping();
  const redisState = redis ? ((await redis.ping()) ? 'up' : 'down') : 'not configured';
  const problems: string[] = [];
  if (!databaseUp) problems.push('the database does not answer');
  if (redisState === 'down') problems.push('Redis does not answer');
  const feed = databaseUp ? await operations.status().catch(() => null) : null;
  if (databaseUp && !feed) problems.push('the subscriptions cannot be read');
  if (feed) problems.push(...feed.problems);
  return {
    status: problems.length === 0 ? 'ok' : 'degraded',
    database: databaseUp ? 'up' : 'down',
    redis: redisState,
    problems,
    feed,
  };
}

/** How long one check answers every `/health` call (a balancer's probes, a burst of them). */
const PUBLIC_HEALTH_TTL_MS = 1000;

@Controller('health')
export class HealthController {
  private latest: { at: number; check: Promise<HealthResponse> } | null = null;

  constructor(
    @Inject(DATABASE) private readonly database: Database,
    private readonly operations: SubscriptionOperations,
    @Optional() @Inject(REDIS_HEALTH) private readonly redis: RedisHealth | null,
  ) {}

  /**
   * 200 `ok`, or 503 `degraded` past the thresholds of README "How the core works" (database or Redis down, parked
   * events, a subscription far behind, no live subscriptions host, a transaction holding the feed back). The figures
   * behind it are for admins, at /v1/admin/health.
   */
  @Public()
  @Get()
  async health(@Req() request: FastifyRequest): Promise<{ status: HealthResponse['status'] }> {
    // Calls arriving together, or within a second, share one check: probes cannot load the database.
    if (!this.latest || Date.now() - this.latest.at > PUBLIC_HEALTH_TTL_MS) {
      this.latest = { at: Date.now(), check: checkHealth(this.database, this.redis, this.operations) };
    }
    const { status } = await this.latest.check;
    if (status !== 'ok') overrideStatus(request, 503);
    return { status };
  }
}
