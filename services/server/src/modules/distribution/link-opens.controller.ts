import { Body, Controller, Headers, HttpCode, Param, Post } from '@nestjs/common';
import {
  linkCodeParamSchema,
  linkOpenRequestSchema,
  type LinkOpenResponse,
  linkOpenResponseSchema,
} from '@seatlink/contracts';
import type { z } from 'zod';
import { Public } from '../../infra/http/auth.decorators.js';
import { Answers } from '../../infra/http/openapi.decorators.js';
import { Throttled } from '../../infra/throttle/throttled.guard.js';
import { judgeUserAgent } from './claimant-device.js';
import { LinkOpens } from './link-opens.service.js';

/**
 * `POST /v1/links/{code}/opens` (public): the recipient page says it was opened, once per load, with the device id it
 * keeps and where the recipient came from. The first open of a link by a device is recorded (a LinkOpened event); a
 * device's next ones, a known bot's or a client that does not say what it is are answered `counted: false` and record
 * nothing. Reading the link (GET) never counts: chat apps and link previews fetch it. Limited per address.
 */
@Controller('v1/links')
@Public()
export class LinkOpensController {
  constructor(private readonly opens: LinkOpens) {}

  @Post(':code/opens')
  @HttpCode(200)
  @Answers(linkOpenResponseSchema)
  @Throttled('public')
  async open(
    @Param('code', { schema: linkCodeParamSchema }) code: string,
    @Body({ schema: linkOpenRequestSchema }) body: z.output<typeof linkOpenRequestSchema>,
    @Headers('user-agent') userAgent: string | undefined,
  ): Promise<LinkOpenResponse> {
    const agent = judgeUserAgent(userAgent);
    if (agent.automated) return { counted: false };
    // The recipient's address is not recorded: an open says which device class, never who.
    const counted = await this.opens.open(code, {
      deviceId: body.device_id,
      device: agent.device,
      referrer: body.referrer,
    });
    return { counted };
  }
}
