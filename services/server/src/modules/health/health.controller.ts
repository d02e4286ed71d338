import { Controller, Get, Req } from '@nestjs/common';
import { type HealthResponse, type HealthStatusResponse, healthStatusResponseSchema } from '@seatlink/contracts';
import type { FastifyRequest } from 'fastify';
import { overrideStatus } from '../../infra/http/response-status.js';
import { Public } from '../../infra/http/auth.decorators.js';
import { Answers } from '../../infra/http/openapi.decorators.js';
import { HealthService } from './health.service.js';

/** How long one check answers every `/health` call (a balancer's probes, a burst of them). */
const PUBLIC_HEALTH_TTL_MS = 1000;

@Controller('health')
export class HealthController {
  private latest: { at: number; check: Promise<HealthResponse> } | null = null;

  constructor(private readonly checks: HealthService) {}

  /**
   * 200 `ok`, or 503 `degraded` past the thresholds of README "How the core works" (database or Redis down, parked
   * events, a subscription far behind, no live subscriptions host, a transaction holding the feed back, a feature's
   * own check). It answers within its bound whatever hangs (a stopped Redis or database counts as down). The figures
   * behind it are for admins, at /v1/admin/health.
   */
  @Public()
  @Get()
  @Answers(healthStatusResponseSchema)
  async health(@Req() request: FastifyRequest): Promise<HealthStatusResponse> {
    // Calls arriving together, or within a second, share one check: probes cannot load the database.
    if (!this.latest || Date.now() - this.latest.at > PUBLIC_HEALTH_TTL_MS) {
      this.latest = { at: Date.now(), check: this.checks.check() };
    }
    const { status } = await this.latest.check;
    if (status !== 'ok') overrideStatus(request, 503);
    return { status };
  }
}
