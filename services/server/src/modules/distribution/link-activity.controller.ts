import { Controller, Get, Query } from '@nestjs/common';
import {
  type LinkActivityQuery,
  linkActivityQuerySchema,
  type LinkActivityResponse,
  linkActivityResponseSchema,
  type User,
} from '@seatlink/contracts';
import { ReadReplicas, readersOf } from '../../infra/db/read-replicas.js';
import { ApiKeyScoped, CurrentUser } from '../../infra/http/auth.decorators.js';
import { Answers } from '../../infra/http/openapi.decorators.js';
import { clock } from '../../shared/clock.js';
import { linkActivity } from './read-models/links.queries.js';

/**
 * GET /v1/links/activity (signed in, or an API key with `links:read`): the caller's links over the last `days` days —
 * opens and claims per day, the links opened and not claimed, those expiring unclaimed (docs/reference.md).
 */
@Controller('v1/links')
export class LinkActivityController {
  constructor(private readonly reads: ReadReplicas) {}

  @ApiKeyScoped('links:read')
  @Get('activity')
  @Answers(linkActivityResponseSchema)
  async activity(
    @Query({ schema: linkActivityQuerySchema }) query: LinkActivityQuery,
    @CurrentUser() user: User,
  ): Promise<LinkActivityResponse> {
    return this.reads.read(readersOf(user), (db) => linkActivity(db, user.id, query.days, clock.now()));
  }
}
