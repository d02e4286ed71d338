import {
  ConflictException,
  Controller,
  Get,
  HttpCode,
  NotFoundException,
  Param,
  Post,
  Query,
  UnprocessableEntityException,
} from '@nestjs/common';
import {
  type HealthResponse,
  healthResponseSchema,
  type ParkedEventResponse,
  parkedEventResponseSchema,
  type ParkedEventsResponse,
  parkedEventsResponseSchema,
  type User,
} from '@seatlink/contracts';
import { z } from 'zod';
import {
  ParkedEventNotFoundError,
  ParkedEventNotParkedError,
  SubscriptionOperations,
} from '../../infra/subscriptions/subscription-operations.js';
import { AdminOnly, CurrentUser } from '../../infra/http/auth.decorators.js';
import { Answers } from '../../infra/http/openapi.decorators.js';
import { HealthService } from './health.service.js';

const parkedIdSchema = z.uuid({ error: 'Parked event id must be a UUID' });
const parkedQuerySchema = z.object({
  status: z
    .enum(['parked', 'retried', 'skipped', 'all'], { error: 'status is parked, retried, skipped or all' })
    .default('parked'),
});

/** What admins see of the event pipeline: every health figure, and the parked events to retry or skip. */
@Controller('v1/admin')
@AdminOnly()
export class AdminOperationsController {
  constructor(
    private readonly operations: SubscriptionOperations,
    private readonly checks: HealthService,
  ) {}

  @Get('health')
  @Answers(healthResponseSchema)
  health(): Promise<HealthResponse> {
    return this.checks.check();
  }

  @Get('parked-events')
  @Answers(parkedEventsResponseSchema)
  async parked(
    @Query({ schema: parkedQuerySchema }) query: z.infer<typeof parkedQuerySchema>,
  ): Promise<ParkedEventsResponse> {
    return { parked_events: await this.operations.listParked(query.status) };
  }

  /** Applies the event again; 422 with the new error when it fails again (it stays parked). */
  @Post('parked-events/:id/retry')
  @HttpCode(200)
  @Answers(parkedEventResponseSchema)
  async retry(
    @Param('id', { schema: parkedIdSchema }) id: string,
    @CurrentUser() admin: User,
  ): Promise<ParkedEventResponse> {
    const parked = await this.found(() => this.operations.retry(id, admin.id));
    if (parked.status === 'parked') {
      throw new UnprocessableEntityException({
        message: `The event failed again: ${parked.error}`,
        code: 'STILL_FAILING',
      });
    }
    return { parked_event: parked };
  }

  @Post('parked-events/:id/skip')
  @HttpCode(200)
  @Answers(parkedEventResponseSchema)
  async skip(
    @Param('id', { schema: parkedIdSchema }) id: string,
    @CurrentUser() admin: User,
  ): Promise<ParkedEventResponse> {
    return { parked_event: await this.found(() => this.operations.skip(id, admin.id)) };
  }

  private async found<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      if (err instanceof ParkedEventNotFoundError) throw new NotFoundException('Parked event not found');
      if (err instanceof ParkedEventNotParkedError) {
        throw new ConflictException({ message: 'This event was already retried or skipped', code: 'NOT_PARKED' });
      }
      throw err;
    }
  }
}
