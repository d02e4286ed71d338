import { Body, Controller, Get, Inject, Put } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import {
  type NotificationPreferences,
  notificationPreferencesSchema,
  type NotificationPreferencesRequest,
  notificationPreferencesRequestSchema,
  type User,
} from '@seatlink/contracts';
import { DATABASE } from '../../infra/db/database.module.js';
import type { Database } from '../../infra/db/database.js';
import { ApiKeyScoped, ClientIp, CurrentUser } from '../../infra/http/auth.decorators.js';
import { CommandId } from '../../infra/http/command-id.js';
import { Answers } from '../../infra/http/openapi.decorators.js';
import { ReadModelWaiter } from '../../infra/subscriptions/read-model-waiter.js';
import { NotificationsCommandMessage } from './notifications.command.js';
import { emailPreferences } from './read-models/notifications.queries.js';
import { clock } from '../../shared/clock.js';

/** The settings page's e-mail choices: per kind of notification, none, at once or in a daily digest. */
@Controller('v1/me/notification-preferences')
export class NotificationPreferencesController {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly waiter: ReadModelWaiter,
    @Inject(DATABASE) private readonly database: Database,
  ) {}

  @ApiKeyScoped('notifications:read')
  @Get()
  @Answers(notificationPreferencesSchema)
  get(@CurrentUser() user: User): Promise<NotificationPreferences> {
    return emailPreferences(this.database.db, user.id);
  }

  @ApiKeyScoped('notifications:write')
  @Put()
  @Answers(notificationPreferencesSchema)
  async set(
    @Body({ schema: notificationPreferencesRequestSchema }) body: NotificationPreferencesRequest,
    @CurrentUser() user: User,
    @ClientIp() ip: string,
    @CommandId() commandId: string,
  ): Promise<NotificationPreferences> {
    const now = clock.now().toISOString();
    const result = await this.commandBus.execute(
      new NotificationsCommandMessage(
        { type: 'SetEmailPreferences', data: { userId: user.id, email: body.email, now } },
        { actorId: user.id, ip, commandId },
      ),
    );
    await this.waiter.pending(result);
    // The answer is what the stream decided (the read model may lag behind a moment).
    const set = result.events.findLast((e) => e.type === 'NotificationPreferencesSet');
    return { email: set ? set.data.email : result.state.email };
  }
}
