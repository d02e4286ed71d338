import {
  BadRequestException,
  Body,
  Controller,
  Get,
  HttpCode,
  NotFoundException,
  Param,
  Post,
  Put,
  Query,
} from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import {
  type AdminUsersResponse,
  type PageQuery,
  pageQuerySchema,
  type SetCreditsRequest,
  setCreditsRequestSchema,
  type SetCreditsResponse,
  IDENTITY_MESSAGES,
  type MessageResponse,
  type ToggleBanResponse,
  type User,
  userIdParamSchema,
} from '@seatlink/contracts';
import { RealtimeGateway } from '../../infra/realtime/realtime.gateway.js';
import { IdentityMailService } from '../identity/identity-mail.service.js';
import { SessionsService } from '../identity/sessions.service.js';
import { UserCommandMessage } from '../identity/user-command.handler.js';
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
    private readonly sessions: SessionsService,
    private readonly identityMail: IdentityMailService,
    private readonly realtime: RealtimeGateway,
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

  /** Bans or unbans. A ban ends every session of the user at once and closes their open sockets. */
  @Post(':id/toggle-ban')
  @HttpCode(200)
  async toggleBan(
    @Param('id', { schema: userIdParamSchema }) userId: string,
    @CurrentUser() admin: User,
    @ClientIp() ip: string,
  ): Promise<ToggleBanResponse> {
    if (userId === admin.id) throw new BadRequestException('You cannot ban yourself');
    const target = await this.queryBus.execute(new GetUserQuery(userId));
    if (!target) throw new NotFoundException('User not found');
    const { position, events } = await this.commandBus.execute(
      new UserCommandMessage(
        { type: 'ToggleBan', data: { userId, by: admin.id, now: new Date().toISOString() } },
        { actorId: admin.id, ip },
      ),
    );
    await this.waiter.waitFor(position);
    const banned = events.some((e) => e.type === 'UserBanned');
    if (banned) {
      await this.sessions.endAllFor(userId);
      this.realtime.disconnectUser(userId, 'banned');
    }
    const user = (await this.queryBus.execute(new GetUserQuery(userId))) ?? target;
    return { message: banned ? 'User has been banned' : 'User has been unbanned', user };
  }

  /** E-mails the user a password reset link. */
  @Post(':id/reset-password')
  @HttpCode(200)
  async resetPassword(@Param('id', { schema: userIdParamSchema }) userId: string): Promise<MessageResponse> {
    const target = await this.queryBus.execute(new GetUserQuery(userId));
    if (!target) throw new NotFoundException('User not found');
    if (!(await this.identityMail.sendPasswordReset(userId))) {
      throw new BadRequestException('The password reset email could not be sent');
    }
    return { message: IDENTITY_MESSAGES.adminResetSent };
  }
}
