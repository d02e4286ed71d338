import { Controller, Get, Header, HttpCode, Inject, Post, Query, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { RECIPIENT_MAIL, recipientUnsubscribeQuerySchema } from '@seatlink/contracts';
import type { FastifyReply } from 'fastify';
import type { z } from 'zod';
import { DATABASE } from '../../infra/db/database.module.js';
import type { Database } from '../../infra/db/database.js';
import { ClientIp, Public } from '../../infra/http/auth.decorators.js';
import { plainPage } from '../../infra/http/plain-page.js';
import { Throttled } from '../../infra/throttle/throttled.guard.js';
import { DomainError } from '../../shared/event-sourcing/decider.js';
import { clock } from '../../shared/clock.js';
import {
  readRecipientToken,
  RECIPIENT_UNSUBSCRIBE_PATH,
  existingRecipientMailSecret,
  type RecipientToken,
} from './recipient-mail-tokens.js';
import { TicketDistributionCommandMessage } from './ticket-distribution.command.js';

type Query = z.infer<typeof recipientUnsubscribeQuerySchema>;

const invalid = () => plainPage('Link not valid', `<p>${RECIPIENT_MAIL.unsubscribeInvalid}.</p>`);

/**
 * The one-click unsubscribe of a link recipient's e-mails (RFC 8058): a mail client POSTs `List-Unsubscribe=One-Click`
 * to the link of the `List-Unsubscribe` header, and no more e-mail about that link goes to that address (a
 * LinkRecipientUnsubscribed on the ticket's stream, so a replay keeps it). Opened in a browser (GET), the link only
 * asks: a link scanner that follows it unsubscribes nobody. The token is signed (HMAC) and names one link and address.
 */
@Controller(RECIPIENT_UNSUBSCRIBE_PATH.slice(1))
export class RecipientUnsubscribeController {
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
    @Query({ schema: recipientUnsubscribeQuerySchema }) query: Query,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    if (!(await this.read(query.token))) {
      void reply.status(404);
      return invalid();
    }
    return plainPage(
      'Unsubscribe',
      `<p>${RECIPIENT_MAIL.unsubscribeAsk}</p>
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
    @Query({ schema: recipientUnsubscribeQuerySchema }) query: Query,
    @ClientIp() ip: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const token = await this.read(query.token);
    if (!token) {
      void reply.status(404);
      return invalid();
    }
    try {
      await this.commandBus.execute(
        new TicketDistributionCommandMessage(
          { type: 'UnsubscribeRecipient', data: { ...token, now: clock.now().toISOString() } },
          { ip },
        ),
      );
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      void reply.status(404);
      return invalid();
    }
    return plainPage('Unsubscribed', `<p>${RECIPIENT_MAIL.unsubscribed}.</p>`);
  }

  private async read(token: string): Promise<RecipientToken | null> {
    // Read only: a request from outside never writes the key (none yet: no token was ever given out).
    const secret = await existingRecipientMailSecret(this.database.db);
    return secret === null ? null : readRecipientToken(secret, token);
  }
}
