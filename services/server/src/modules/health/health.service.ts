import { Inject, Injectable, Optional } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import type { HealthResponse } from '@seatlink/contracts';
import { DATABASE } from '../../infra/db/database.module.js';
import type { Database } from '../../infra/db/database.js';
import { findHealthChecks } from '../../infra/health/health-check.js';
import { ReadReplicas } from '../../infra/db/read-replicas.js';
import { RedisBreakers } from '../../infra/redis/redis-breakers.js';
import { SubscriptionOperations } from '../../infra/subscriptions/subscription-operations.js';
import { withDeadline } from '../../shared/deadline.js';
import { REDIS_HEALTH, type RedisHealth } from './redis-health.js';

/** The most one part of the check may take; past it, that part counts as failed (the check always answers). */
export const HEALTH_PART_BOUND_MS = 1500;

const TIMED_OUT = Symbol('timed out');

/** `work`, or TIMED_OUT once `ms` have passed. */
function within<T>(work: Promise<T>, ms: number): Promise<T | typeof TIMED_OUT> {
  return withDeadline<T | typeof TIMED_OUT>(work, ms, () => new TimedOut()).catch((err: unknown) => {
    if (err instanceof TimedOut) return TIMED_OUT;
    throw err;
  });
}

class TimedOut extends Error {}

/**
 * The health of this deployment, as `/health` (the status only) and `/v1/admin/health` (every figure) tell it: the
 * database, Redis, the event pipeline, and each feature's own checks (`@ProvidesHealthCheck()`). Every part has a
 * bound (a hung Redis or database counts as down), so the check answers within about 1.5 s whatever hangs.
 */
@Injectable()
export class HealthService {
  constructor(
    @Inject(DATABASE) private readonly database: Database,
    private readonly operations: SubscriptionOperations,
    private readonly discovery: DiscoveryService,
    @Optional() @Inject(REDIS_HEALTH) private readonly redis: RedisHealth | null,
    @Optional() @Inject(RedisBreakers) private readonly breakers: RedisBreakers | null,
    @Optional() @Inject(ReadReplicas) private readonly replicas: ReadReplicas | null,
  ) {}

  async check(): Promise<HealthResponse> {
    const checks = findHealthChecks(this.discovery);
    const [databasePing, redisPing, feedStatus, ...checked] = await Promise.all([
      within(this.database.ping(), HEALTH_PART_BOUND_MS),
      this.redis ? within(this.redis.ping(), HEALTH_PART_BOUND_MS) : Promise.resolve(null),
      within(
        this.operations.status().catch(() => null),
        HEALTH_PART_BOUND_MS,
      ),
      ...checks.map((c) =>
        within(
          c.problems().catch(() => [`${c.name}: the check failed`]),
          HEALTH_PART_BOUND_MS,
        ),
      ),
    ]);
    const databaseUp = databasePing === true;
    const redisState = redisPing === null ? 'not configured' : redisPing === true ? 'up' : 'down';
    const feedRead = feedStatus === TIMED_OUT ? null : feedStatus;
    const problems: string[] = [];
    if (!databaseUp)
      problems.push(
        databasePing === TIMED_OUT ? 'the database does not answer in time' : 'the database does not answer',
      );
    if (redisState === 'down') problems.push('Redis does not answer');
    const breaker = this.breakerState();
    if (breaker.tripped.length > 0) {
      problems.push(
        `Redis did not answer in time a moment ago: the calls of ${breaker.tripped.join(', ')} fail at once ` +
          '(throttles count in this process) until it answers again',
      );
    }
    if (databaseUp && !feedRead) problems.push('the subscriptions cannot be read');
    let feed: HealthResponse['feed'] = null;
    if (feedRead) {
      // The feed's own problems are told once, among the rest: its figures go out without them.
      const { problems: feedProblems, ...figures } = feedRead;
      problems.push(...feedProblems);
      feed = figures;
    }
    const replicas = (this.replicas?.states() ?? []).map((r) => ({
      name: r.name,
      in_use: r.inUse,
      lag_seconds: r.lagSeconds,
      lag_bytes: r.lagBytes,
      problem: r.problem,
    }));
    // A replica left out is said in its entry, not among the problems: nobody sees a difference (the primary serves its
    // reads), and the processes must not be taken for unhealthy while it is down.
    for (const [i, result] of checked.entries()) {
      if (result === TIMED_OUT) problems.push(`${checks[i]!.name}: no answer within ${HEALTH_PART_BOUND_MS} ms`);
      else problems.push(...result);
    }
    return {
      status: problems.length === 0 ? 'ok' : 'degraded',
      database: databaseUp ? 'up' : 'down',
      redis: redisState,
      redisBreaker: breaker.state,
      problems,
      replicas,
      feed,
    };
  }

  /** The breakers of this process's Redis clients: the worst state, and the clients not closed. */
  private breakerState(): { state: HealthResponse['redisBreaker']; tripped: string[] } {
    if (!this.redis) return { state: 'not configured', tripped: [] };
    const tripped = (this.breakers?.states() ?? []).filter((b) => b.state !== 'closed');
    const state = tripped.some((b) => b.state === 'open') ? 'open' : tripped.length > 0 ? 'half-open' : 'closed';
    return { state, tripped: tripped.map((b) => b.client) };
  }
}
