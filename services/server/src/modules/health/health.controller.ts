import { Controller, Get, Inject, Optional, Res } from '@nestjs/common';
import type { HealthResponse } from '@seatlink/contracts';
import type { FastifyReply } from 'fastify';
import { DATABASE } from '../../infra/db/database.module.js';
import type { Database } from '../../infra/db/database.js';
import { EVENT_STORE, type EventStore } from '../../infra/event-store/event-store.port.js';
import { readCheckpoint } from '../../infra/projections/projector.js';
import { REDIS_HEALTH, type RedisHealth } from './redis-health.js';
import { Public } from '../identity/auth.decorators.js';

const LAG_CAP = 10_000;

@Controller('health')
export class HealthController {
  constructor(
    @Inject(DATABASE) private readonly database: Database,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Optional() @Inject(REDIS_HEALTH) private readonly redis: RedisHealth | null,
  ) {}

  /** Database, Redis and how many events the read models are behind (capped at 10000). */
  @Public()
  @Get()
  async health(@Res({ passthrough: true }) reply: FastifyReply): Promise<HealthResponse> {
    const database = (await this.database.ping()) ? 'up' : 'down';
    const redis = this.redis ? ((await this.redis.ping()) ? 'up' : 'down') : 'not configured';
    let checkpoint: string | null = null;
    let lag = -1;
    if (database === 'up') {
      checkpoint = await readCheckpoint(this.database);
      lag = (await this.store.readAll(checkpoint, LAG_CAP)).length;
    }
    const status = database === 'up' && redis !== 'down' ? 'ok' : 'degraded';
    if (status !== 'ok') reply.status(503);
    return { status, database, redis, projector: { lag, checkpoint } };
  }
}
