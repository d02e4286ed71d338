import {
  Inject,
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
import { CommandBus } from '@nestjs/cqrs';
import {
  type AdminUsersResponse,
  adminUsersResponseSchema,
  type PageQuery,
  pageQuerySchema,
  type SetCreditsRequest,
  setCreditsRequestSchema,
  type SetCreditsResponse,
  setCreditsResponseSchema,
  IDENTITY_MESSAGES,
  type MessageResponse,
  messageResponseSchema,
  type ToggleBanResponse,
  toggleBanResponseSchema,
  type User,
  userIdParamSchema,
} from '@seatlink/contracts';
import { DATABASE } from '../../infra/db/database.module.js';
import type { Database } from '../../infra/db/database.js';
import { ReadReplicas, readersOf } from '../../infra/db/read-replicas.js';
import { CommandId } from '../../infra/http/command-id.js';
import { Answers } from '../../infra/http/openapi.decorators.js';
import { ReadModelWaiter } from '../../infra/subscriptions/read-model-waiter.js';
import { SessionPolicy, UserAccounts, UserCommandMessage, listUsers } from '../identity/index.js';
import { CreditsCommandMessage } from '../credits/index.js';
import { AdminOnly, ClientIp, CurrentUser, StepUp } from '../../infra/http/auth.decorators.js';
import { clock } from '../../shared/clock.js';

@Controller('v1/admin/users')
@AdminOnly()
export class AdminUsersController {
  constructor(
    private readonly commandBus: CommandBus,
    @Inject(DATABASE) private readonly database: Database,
    private readonly waiter: ReadModelWaiter,
    private readonly policy: SessionPolicy,
    private readonly accounts: UserAccounts,
    private readonly reads: ReadReplicas,
  ) {}

  @Get()
  @Answers(adminUsersResponseSchema)
  async list(
    @Query({ schema: pageQuerySchema }) query: PageQuery,
    @CurrentUser() admin: User,
  ): Promise<AdminUsersResponse> {
    const now = clock.now();
    const result = await this.reads.read(readersOf(admin), (db) => listUsers(db, query.page, query.limit, now));
    return {
      users: result.users,
      pagination: { page: query.page, limit: query.limit, total: result.total },
      new_users_last_30_days: result.newLast30Days,
    };
  }

  /**
   * Sets the balance, with the admin's reason (kept in the CreditsSet event and shown in the user's audit log); with
   * `expected_balance`, only while the balance is still the one the admin confirmed (409 BALANCE_CHANGED otherwise).
   * The answer shows the balance the command set, whether or not the read model shows it yet (then 202 `pending`).
   */
  @Put(':id/credits')
  @StepUp()
  @Answers(setCreditsResponseSchema)
  async setCredits(
    @Param('id', { schema: userIdParamSchema }) userId: string,
    @Body({ schema: setCreditsRequestSchema }) body: SetCreditsRequest,
    @CurrentUser() admin: User,
    @ClientIp() ip: string,
    @CommandId() commandId: string,
  ): Promise<SetCreditsResponse> {
    const target = await this.accounts.getUser(userId);
    if (!target) throw new NotFoundException('User not found');
    const result = await this.commandBus.execute(
      new CreditsCommandMessage(
        {
          type: 'SetCredits',
          data: {
            userId,
            credits: body.credits,
            setBy: admin.id,
            reason: body.reason,
            ...(body.expected_balance === undefined ? {} : { expectedBalance: body.expected_balance }),
            now: clock.now().toISOString(),
          },
        },
        { actorId: admin.id, ip, commandId },
      ),
    );
    const pending = await this.waiter.pending(result);
    const user = (await this.accounts.getUser(userId)) ?? target;
    const set = result.events.at(-1);
    return {
      message: 'Credits updated successfully',
      user: set?.type === 'CreditsSet' ? { ...user, balance: set.data.credits } : user,
      ...(pending ? { pending } : {}),
    };
  }

  /**
   * Bans or unbans. A ban ends every session of the user at once (and the sessions reaction again, should this process
   * stop right after the ban), and closes their open sockets. The answer carries the state the command decided.
   */
  @Post(':id/toggle-ban')
  @StepUp()
  @HttpCode(200)
  @Answers(toggleBanResponseSchema)
  async toggleBan(
    @Param('id', { schema: userIdParamSchema }) userId: string,
    @CurrentUser() admin: User,
    @ClientIp() ip: string,
    @CommandId() commandId: string,
  ): Promise<ToggleBanResponse> {
    if (userId === admin.id) throw new BadRequestException('You cannot ban yourself');
    const target = await this.accounts.getUser(userId);
    if (!target) throw new NotFoundException('User not found');
    const result = await this.commandBus.execute(
      new UserCommandMessage(
        { type: 'ToggleBan', data: { userId, by: admin.id, now: clock.now().toISOString() } },
        { actorId: admin.id, ip, commandId },
      ),
    );
    const banned = result.events.some((e) => e.type === 'UserBanned');
    if (banned) await this.policy.endSessions(userId, 'banned');
    const pending = await this.waiter.pending(result);
    const user = (await this.accounts.getUser(userId)) ?? target;
    return {
      message: banned ? 'User has been banned' : 'User has been unbanned',
      user: { ...user, is_banned: banned },
      ...(pending ? { pending } : {}),
    };
  }

  /** E-mails the user a password reset link (the identity-mail reaction sends it). */
  @Post(':id/reset-password')
  @StepUp()
  @HttpCode(200)
  @Answers(messageResponseSchema)
  async resetPassword(
    @Param('id', { schema: userIdParamSchema }) userId: string,
    @CurrentUser() admin: User,
    @ClientIp() ip: string,
    @CommandId() commandId: string,
  ): Promise<MessageResponse> {
    const state = await this.accounts.state(userId);
    if (!state.exists) throw new NotFoundException('User not found');
    if (state.banned) throw new BadRequestException('A banned user cannot reset their password');
    const result = await this.commandBus.execute(
      new UserCommandMessage(
        { type: 'RequestPasswordReset', data: { userId, by: admin.id, now: clock.now().toISOString() } },
        { actorId: admin.id, ip, commandId },
      ),
    );
    const pending = await this.waiter.pending(result);
    return { message: IDENTITY_MESSAGES.adminResetSent, ...(pending ? { pending } : {}) };
  }
}
