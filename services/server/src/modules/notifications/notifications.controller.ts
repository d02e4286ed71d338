import { BadRequestException, Body, Controller, Get, HttpCode, Inject, Post, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import {
  NOTIFICATION_MESSAGES,
  type NotificationsQuery,
  notificationsQuerySchema,
  type NotificationsReadRequest,
  notificationsReadRequestSchema,
  type NotificationsReadResponse,
  notificationsReadResponseSchema,
  type NotificationsResponse,
  notificationsResponseSchema,
  type User,
} from '@seatlink/contracts';
import { DATABASE } from '../../infra/db/database.module.js';
import type { Database } from '../../infra/db/database.js';
import { ReadReplicas, readersOf } from '../../infra/db/read-replicas.js';
import { ApiKeyScoped, ClientIp, CurrentUser } from '../../infra/http/auth.decorators.js';
import { CommandId } from '../../infra/http/command-id.js';
import { Answers } from '../../infra/http/openapi.decorators.js';
import { ReadModelWaiter } from '../../infra/subscriptions/read-model-waiter.js';
import { NotificationsCommandMessage } from './notifications.command.js';
import { decodeCursor, notificationsPage, unreadNotifications } from './read-models/notifications.queries.js';
import { clock } from '../../shared/clock.js';

/** The bell: the signed-in user's notifications, a page at a time, and marking them read. */
@Controller('v1/notifications')
export class NotificationsController {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly waiter: ReadModelWaiter,
    @Inject(DATABASE) private readonly database: Database,
    private readonly reads: ReadReplicas,
  ) {}

  @ApiKeyScoped('notifications:read')
  @Get()
  @Answers(notificationsResponseSchema)
  async list(
    @Query({ schema: notificationsQuerySchema }) query: NotificationsQuery,
    @CurrentUser() user: User,
  ): Promise<NotificationsResponse> {
    const before = query.before === undefined ? null : decodeCursor(query.before);
    if (query.before !== undefined && before === null) {
      throw new BadRequestException(`before: ${NOTIFICATION_MESSAGES.before}`);
    }
    return this.reads.read(readersOf(user), (db) => notificationsPage(db, user.id, query.limit, before));
  }

  @ApiKeyScoped('notifications:write')
  @Post('read')
  @HttpCode(200)
  @Answers(notificationsReadResponseSchema)
  async read(
    @Body({ schema: notificationsReadRequestSchema }) body: NotificationsReadRequest,
    @CurrentUser() user: User,
    @ClientIp() ip: string,
    @CommandId() commandId: string,
  ): Promise<NotificationsReadResponse> {
    const result = await this.commandBus.execute(
      new NotificationsCommandMessage(
        {
          type: 'MarkRead',
          data: {
            userId: user.id,
            ids: 'ids' in body ? body.ids : null,
            requestId: commandId,
            now: clock.now().toISOString(),
          },
        },
        { actorId: user.id, ip, commandId },
      ),
    );
    await this.waiter.pending(result);
    return { message: NOTIFICATION_MESSAGES.read, unread: await unreadNotifications(this.database.db, user.id) };
  }
}
