import { Body, Controller, Get, NotFoundException, Param, Put, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import {
  type AdminUsersResponse,
  type PageQuery,
  pageQuerySchema,
  type SetCreditsRequest,
  setCreditsRequestSchema,
  type SetCreditsResponse,
  type User,
  userIdParamSchema,
} from '@seatlink/contracts';
import { ProjectionWaiter } from '../../infra/projections/projection-waiter.js';
import { SetCreditsCommand } from '../credits/set-credits.handler.js';
import { AdminOnly, ClientIp, CurrentUser } from '../identity/auth.decorators.js';
import { GetUserQuery, ListUsersQuery } from '../identity/get-user.query.js';

@Controller('v1/admin/users')
@AdminOnly()
export class AdminUsersController {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly queryBus: QueryBus,
    private readonly waiter: ProjectionWaiter,
  ) {}

  @Get()
  async list(@Query({ schema: pageQuerySchema }) query: PageQuery): Promise<AdminUsersResponse> {
    const result = await this.queryBus.execute(new ListUsersQuery(query.page, query.limit));
    return {
      users: result.users,
      pagination: { page: query.page, limit: query.limit, total: result.total },
      new_users_last_30_days: result.newLast30Days,
    };
  }

  @Put(':id/credits')
  async setCredits(
    @Param('id', { schema: userIdParamSchema }) userId: string,
    @Body({ schema: setCreditsRequestSchema }) body: SetCreditsRequest,
    @CurrentUser() admin: User,
    @ClientIp() ip: string,
  ): Promise<SetCreditsResponse> {
    const target = await this.queryBus.execute(new GetUserQuery(userId));
    if (!target) throw new NotFoundException('User not found');
    const { position } = await this.commandBus.execute(
      new SetCreditsCommand({ userId, credits: body.credits, actorId: admin.id, ip }),
    );
    await this.waiter.waitFor(position);
    const user = (await this.queryBus.execute(new GetUserQuery(userId))) ?? target;
    return { message: 'Credits updated successfully', user };
  }
}
