import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import {
  IDENTITY_MESSAGES,
  type MessageResponse,
  messageResponseSchema,
  type WaitlistRequest,
  waitlistRequestSchema,
} from '@seatlink/contracts';
import { HumanCheck } from '../../infra/captcha/human-check.guard.js';
import { CommandId } from '../../infra/http/command-id.js';
import { Answers } from '../../infra/http/openapi.decorators.js';
import { Throttled } from '../../infra/throttle/throttled.guard.js';
import { ClientIp, Public } from '../../infra/http/auth.decorators.js';
import { WaitlistCommandMessage } from './waitlist.command.js';
import { clock } from '../../shared/clock.js';

/** Register Interest: visitors without an invite code ask to be told when registrations open. */
@Controller('v1/waitlist')
export class WaitlistController {
  constructor(private readonly commandBus: CommandBus) {}

  @Public()
  @Post()
  @HttpCode(200)
  @HumanCheck('interestRegistration')
  @Throttled('public')
  @Answers(messageResponseSchema)
  async join(
    @Body({ schema: waitlistRequestSchema }) body: WaitlistRequest,
    @ClientIp() ip: string,
    @CommandId() commandId: string,
  ): Promise<MessageResponse> {
    await this.commandBus.execute(
      new WaitlistCommandMessage(
        {
          type: 'JoinWaitlist',
          data: {
            email: body.email,
            firstName: body.first_name,
            lastName: body.last_name,
            now: clock.now().toISOString(),
          },
        },
        { ip, commandId },
      ),
    );
    return { message: IDENTITY_MESSAGES.waitlistJoined };
  }
}
