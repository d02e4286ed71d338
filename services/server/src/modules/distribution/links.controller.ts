import { Controller, ForbiddenException, Get, Headers, HttpCode, Inject, Param, Post, Req, Res } from '@nestjs/common';
import { type ClaimResponse, LINK_MESSAGES, linkCodeParamSchema, type PublicLink } from '@seatlink/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isbot } from 'isbot';
import { LRUCache } from 'lru-cache';
import { APP_CONFIG, type AppConfig } from '../../infra/config/config.js';
import { idempotencyKeyOf, NoIdempotencyKey } from '../../infra/http/idempotency.interceptor.js';
import { Public } from '../identity/auth.decorators.js';
import { linkUrl } from '../wallet-accounts/read-models/accounts.queries.js';
import { LinkClaims } from './link-claims.service.js';

/**
 * User-Agent strings already judged: isbot runs one long regular expression, and a link's recipients send few
 * different ones. Bounded in bytes; an agent longer than any browser's is judged each time and not kept.
 */
const judged = new LRUCache<string, boolean>({
  max: 2000,
  maxSize: 1024 * 1024,
  maxEntrySize: 1024,
  sizeCalculation: (_bot, userAgent) => userAgent.length || 1,
});
const isAutomated = (userAgent: string) => {
  let bot = judged.get(userAgent);
  if (bot === undefined) {
    bot = isbot(userAgent);
    judged.set(userAgent, bot);
  }
  return bot;
};

/**
 * A link's recipient side (public). Reading a link never counts: chat apps and unfurlers fetch links, and counting
 * them would burn the owner's clicks. A click is counted when a person presses "Add to wallet" (the claim), and never
 * for a known bot or a client that does not say what it is.
 */
@Controller('v1/links')
@Public()
export class LinksController {
  constructor(
    private readonly claims: LinkClaims,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get(':code')
  async view(@Param('code', { schema: linkCodeParamSchema }) code: string): Promise<PublicLink> {
    return this.claims.view(code);
  }

  /**
   * Counts a click. Its Idempotency-Key is honoured where the click is counted (a retry is answered with the click it
   * was given, across API processes), not by the general handling, which would cost two more statements per claim.
   */
  @Post(':code/claim')
  @HttpCode(200)
  @NoIdempotencyKey()
  async claim(
    @Param('code', { schema: linkCodeParamSchema }) code: string,
    @Headers('user-agent') userAgent: string | undefined,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ClaimResponse> {
    const key = idempotencyKeyOf(request) ?? null;
    if (!userAgent || isAutomated(userAgent)) {
      throw new ForbiddenException({ message: LINK_MESSAGES.automated, code: 'AUTOMATED_CLIENT' });
    }
    const claimed = await this.claims.claim(code, linkUrl(this.config.DASHBOARD_URL, code), key);
    if (claimed.replayed) void reply.header('Idempotency-Replayed', 'true');
    return { wallet_url: claimed.walletUrl };
  }
}
