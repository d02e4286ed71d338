import { randomUUID } from 'node:crypto';
import { Body, Controller, HttpCode, Inject, Post, Req } from '@nestjs/common';
import {
  IDENTITY_MESSAGES,
  type MessageResponse,
  type WaitlistRequest,
  waitlistRequestSchema,
} from '@seatlink/contracts';
import type { FastifyRequest } from 'fastify';
import { CAPTCHA_VERIFIER, type CaptchaVerifier, requireHuman } from '../../infra/captcha/captcha.port.js';
import { EVENT_STORE, type EventStore } from '../../infra/event-store/event-store.port.js';
import { THROTTLE_MESSAGES, ThrottleService } from '../../infra/throttle/throttle.service.js';
import { handleCommand } from '../../shared/event-sourcing/aggregate-handler.js';
import { Public } from '../identity/auth.decorators.js';
import { waitlistDecider } from './waitlist.decider.js';
import { waitlistStream } from './waitlist.events.js';

/** Register Interest: visitors without an invite code ask to be told when registrations open. */
@Controller('v1/waitlist')
export class WaitlistController {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CAPTCHA_VERIFIER) private readonly captcha: CaptchaVerifier,
    private readonly throttle: ThrottleService,
  ) {}

  @Public()
  @Post()
  @HttpCode(200)
  async join(
    @Body({ schema: waitlistRequestSchema }) body: WaitlistRequest,
    @Req() request: FastifyRequest,
  ): Promise<MessageResponse> {
    await this.throttle.consume('public-ip', request.ip, THROTTLE_MESSAGES.public);
    await requireHuman(this.captcha, body.token, 'interestRegistration', request.ip);
    await handleCommand(
      this.store,
      waitlistDecider,
      waitlistStream(body.email),
      {
        type: 'JoinWaitlist',
        data: {
          email: body.email,
          firstName: body.first_name,
          lastName: body.last_name,
          now: new Date().toISOString(),
        },
      },
      { metadata: { ip: request.ip }, commandId: randomUUID() },
    );
    return { message: IDENTITY_MESSAGES.waitlistJoined };
  }
}
