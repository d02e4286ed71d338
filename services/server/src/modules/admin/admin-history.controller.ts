import { Controller, Get, Param, Query } from '@nestjs/common';
import { historyQuerySchema, type UserStateAt, userIdParamSchema, userStateAtSchema } from '@seatlink/contracts';
import type { z } from 'zod';
import { AdminOnly } from '../../infra/http/auth.decorators.js';
import { Answers } from '../../infra/http/openapi.decorators.js';
import { UserHistory } from './user-history.service.js';

/** Replay: a user's tickets, links and balance as they stood at a moment (admins). */
@Controller('v1/admin/users')
@AdminOnly()
export class AdminHistoryController {
  constructor(private readonly history: UserHistory) {}

  @Get(':id/history')
  @Answers(userStateAtSchema)
  async stateAt(
    @Param('id', { schema: userIdParamSchema }) userId: string,
    @Query({ schema: historyQuerySchema }) query: z.output<typeof historyQuerySchema>,
  ): Promise<UserStateAt> {
    return this.history.stateAt(userId, new Date(query.at));
  }
}
