import { Controller, Get, Header, HttpCode, Inject, Post, Query, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { NOTIFICATION_PREFERENCES_MESSAGES, unsubscribeQuerySchema } from '@seatlink/contracts';
import { eq } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import type { z } from 'zod';
import { DATABASE } from '../../infra/db/database.module.js';
import type { Database } from '../../infra/db/database.js';
import { ClientIp, Public } from '../../infra/http/auth.decorators.js';
import { plainPage } from '../../infra/http/plain-page.js';
import { Throttled } from '../../infra/throttle/throttled.guard.js';
import { NotificationsCommandMessage } from './notifications.command.js';
import { notificationMailState } from './notifications.schema.js';
import { clock } from '../../shared/clock.js';

/** Where a notification e-mail's unsubscribe link points (List-Unsubscribe). */
export const UNSUBSCRIBE_PATH = '/v1/notifications/unsubscribe';

type UnsubscribeQuery = z.infer<typeof unsubscribeQuerySchema>;

/**
 * The one-click unsubscribe of the notification e-mails (RFC 8058): a mail client POSTs `List-Unsubscribe=One-Click`
 * to the link of the `List-Unsubscribe` header, and every notification e-mail of that user stops (a
 * NotificationPreferencesSet, as the settings page would). Opened in a browser (GET), the link only asks: a link
 * scanner that follows it unsubscribes nobody. The token is the user's own, in every such e-mail; it can do nothing
 * but this.
 */
@Controller(UNSUBSCRIBE_PATH.slice(1))
export class UnsubscribeController {
  constructor(
    private readonly commandBus: CommandBus,
    @Inject(DATABASE) private readonly database: Database,
  ) {}

  @Public()
  @Get()
  @Throttled('public')
  @Header('content-type', 'text/html; charset=utf-8')
  @Header('cache-control', 'no-store')
  async ask(
    @Query({ schema: unsubscribeQuerySchema }) query: UnsubscribeQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    if (!(await this.userOf(query.token))) {
      void reply.status(404);
      return plainPage('Link not valid', `<p>${NOTIFICATION_PREFERENCES_MESSAGES.unsubscribeInvalid}.</p>`);
    }
    return plainPage(
      'Unsubscribe',
      `<p>Stop every notification e-mail from Seatlink? The bell in the dashboard keeps telling you.</p>
<form method="post"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">Unsubscribe</button></form>`,
    );
  }

  @Public()
  @Post()
  @HttpCode(200)
  @Throttled('public')
  @Header('content-type', 'text/html; charset=utf-8')
  @Header('cache-control', 'no-store')
  async unsubscribe(
    @Query({ schema: unsubscribeQuerySchema }) query: UnsubscribeQuery,
    @ClientIp() ip: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const userId = await this.userOf(query.token);
    if (!userId) {
      void reply.status(404);
      return plainPage('Link not valid', `<p>${NOTIFICATION_PREFERENCES_MESSAGES.unsubscribeInvalid}.</p>`);
    }
    await this.commandBus.execute(
      new NotificationsCommandMessage(
        { type: 'Unsubscribe', data: { userId, now: clock.now().toISOString() } },
        { ip },
      ),
    );
    return plainPage('Unsubscribed', `<p>${NOTIFICATION_PREFERENCES_MESSAGES.unsubscribed}.</p>`);
  }

  private async userOf(token: string): Promise<string | null> {
    const [row] = await this.database.db
      .select({ userId: notificationMailState.userId })
      .from(notificationMailState)
      .where(eq(notificationMailState.unsubscribeToken, token));
    return row?.userId ?? null;
  }
}
