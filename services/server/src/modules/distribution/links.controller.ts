import { Controller, Get, Param } from '@nestjs/common';
import { linkCodeParamSchema, type PublicLink, publicLinkSchema } from '@seatlink/contracts';
import { Public } from '../../infra/http/auth.decorators.js';
import { Answers } from '../../infra/http/openapi.decorators.js';
import { LinkClaims } from './link-claims.service.js';

/**
 * A link's recipient side (public). Reading a link never counts: chat apps and unfurlers fetch links, and counting
 * them would burn the owner's clicks. A click is counted when a person presses "Add to wallet": the claim
 * (`ClaimLinkRoute`).
 */
@Controller('v1/links')
@Public()
export class LinksController {
  constructor(private readonly claims: LinkClaims) {}

  @Get(':code')
  @Answers(publicLinkSchema)
  async view(@Param('code', { schema: linkCodeParamSchema }) code: string): Promise<PublicLink> {
    return this.claims.view(code);
  }
}
