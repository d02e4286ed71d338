import { randomUUID } from 'node:crypto';
import { BadRequestException, Body, Controller, HttpCode, Inject, Post, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import {
  type EmailRequest,
  emailRequestSchema,
  IDENTITY_MESSAGES,
  type MessageResponse,
  messageResponseSchema,
  QueueName,
  type RegisterRequest,
  registerRequestSchema,
  type ResetPasswordRequest,
  resetPasswordRequestSchema,
  type TokenRequest,
  tokenRequestSchema,
} from '@seatlink/contracts';
import type { FastifyRequest } from 'fastify';
import { HumanCheck } from '../../infra/captcha/human-check.guard.js';
import { commandIdOf } from '../../infra/http/command-id.js';
import { JOB_QUEUE, type JobQueue } from '../../infra/queue/queue.port.js';
import { ReadModelWaiter } from '../../infra/subscriptions/read-model-waiter.js';
import { Throttled } from '../../infra/throttle/throttled.guard.js';
import { Public } from '../../infra/http/auth.decorators.js';
import { Answers } from '../../infra/http/openapi.decorators.js';
import { AuthTokensService } from './auth-tokens.service.js';
import {
  type EmailRequestData,
  IDENTITY_REQUEST_OPTIONS,
  RequestPasswordResetJob,
  RequestVerificationEmailJob,
} from './identity-requests.jobs.js';
import { PasswordHasher } from './password-hasher.js';
import { RegisterUserCommand } from './register-user.command.js';
import { SessionPolicy } from './session-policy.js';
import { UserCommandMessage } from './user.command.js';
import { clock } from '../../shared/clock.js';

/**
 * What a visitor does without a session: register with an invite code, verify the e-mail address, and reset a
 * forgotten password. Every call counts against the caller's IP; the answers never tell whether an e-mail exists.
 * The e-mails themselves are sent by the identity-mail reaction, from the events these calls append.
 */
@Controller('v1')
@Public()
@Throttled('public')
export class AccountController {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly tokens: AuthTokensService,
    private readonly hasher: PasswordHasher,
    private readonly waiter: ReadModelWaiter,
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
    private readonly policy: SessionPolicy,
  ) {}

  /**
   * Answers a taken address exactly as a new one (the same status and message, about as long: the password is hashed
   * either way): the visitor cannot learn which addresses have accounts. Nothing is registered then, the invite use is
   * given back, and the address's owner is told by e-mail.
   */
  @Post('auth/register')
  @HttpCode(201)
  @HumanCheck('register')
  @Answers(messageResponseSchema)
  async register(
    @Body({ schema: registerRequestSchema }) body: RegisterRequest,
    @Req() request: FastifyRequest,
  ): Promise<MessageResponse> {
    const result = await this.commandBus.execute(
      new RegisterUserCommand({
        email: body.email,
        password: body.password,
        firstName: body.first_name,
        lastName: body.last_name,
        isAdmin: false,
        emailVerified: false,
        inviteCode: body.invite_code,
        commandId: commandIdOf(request),
        ip: request.ip,
        ifEmailTaken: 'tell-owner',
      }),
    );
    // Either way the answer waits for the subscriptions reading what was decided (the e-mail reaction reads both).
    const pending = await this.waiter.pending(result);
    return { message: IDENTITY_MESSAGES.registered, ...(pending ? { pending } : {}) };
  }

  /** Answers at once and the same for every address; a job sends the link when there is an unverified user. */
  @Post('auth/resend-verification')
  @HttpCode(200)
  @Answers(messageResponseSchema)
  async resendVerification(
    @Body({ schema: emailRequestSchema }) body: EmailRequest,
    @Req() request: FastifyRequest,
  ): Promise<MessageResponse> {
    await this.request(RequestVerificationEmailJob.jobName, body.email, request);
    return { message: IDENTITY_MESSAGES.verificationSent };
  }

  /** Failure answers carry the error in field `error` (docs/reference.md "API calls"). */
  @Post('auth/verify-email')
  @HttpCode(200)
  @Answers(messageResponseSchema)
  async verifyEmail(
    @Body({ schema: tokenRequestSchema }) body: TokenRequest,
    @Req() request: FastifyRequest,
  ): Promise<MessageResponse> {
    const userId = await this.tokens.consume(body.token, 'verify_email');
    if (!userId) {
      throw new BadRequestException({
        error: IDENTITY_MESSAGES.verificationInvalid,
        message: IDENTITY_MESSAGES.verificationInvalid,
      });
    }
    const result = await this.commandBus.execute(
      new UserCommandMessage(
        { type: 'VerifyEmail', data: { userId, now: clock.now().toISOString() } },
        { actorId: userId, ip: request.ip, commandId: commandIdOf(request) },
      ),
    );
    const pending = await this.waiter.pending(result);
    return { message: IDENTITY_MESSAGES.emailVerified, ...(pending ? { pending } : {}) };
  }

  /** Answers at once and the same for every address; a job asks for the reset when the user exists. */
  @Post('forgot-password')
  @HttpCode(200)
  @Answers(messageResponseSchema)
  async forgotPassword(
    @Body({ schema: emailRequestSchema }) body: EmailRequest,
    @Req() request: FastifyRequest,
  ): Promise<MessageResponse> {
    await this.request(RequestPasswordResetJob.jobName, body.email, request);
    return { message: IDENTITY_MESSAGES.forgotPassword };
  }

  @Post('auth/validate-reset-token')
  @HttpCode(200)
  @Answers(messageResponseSchema)
  async validateResetToken(@Body({ schema: tokenRequestSchema }) body: TokenRequest): Promise<MessageResponse> {
    if (!(await this.tokens.peek(body.token, 'reset_password'))) {
      throw new BadRequestException(IDENTITY_MESSAGES.resetTokenInvalid);
    }
    return { message: IDENTITY_MESSAGES.resetTokenValid };
  }

  /**
   * Sets the new password and ends every session of the user at once (and the sessions reaction again, should this
   * process stop right after), closing their sockets.
   */
  @Post('auth/reset-password')
  @HttpCode(200)
  @Answers(messageResponseSchema)
  async resetPassword(
    @Body({ schema: resetPasswordRequestSchema }) body: ResetPasswordRequest,
    @Req() request: FastifyRequest,
  ): Promise<MessageResponse> {
    const userId = await this.tokens.consume(body.token, 'reset_password');
    if (!userId) throw new BadRequestException(IDENTITY_MESSAGES.resetTokenInvalid);
    const passwordHash = await this.hasher.hash(body.password);
    const result = await this.commandBus.execute(
      new UserCommandMessage(
        { type: 'ChangePassword', data: { userId, passwordHash, now: clock.now().toISOString() } },
        { actorId: userId, ip: request.ip, commandId: commandIdOf(request) },
      ),
    );
    await this.policy.endSessions(userId, 'password-changed');
    const pending = await this.waiter.pending(result);
    return { message: IDENTITY_MESSAGES.passwordReset, ...(pending ? { pending } : {}) };
  }

  private async request(jobName: string, email: string, request: FastifyRequest) {
    const data: EmailRequestData = { requestId: randomUUID(), email, at: clock.now().toISOString(), ip: request.ip };
    await this.queue.add(QueueName.Identity, jobName, data, IDENTITY_REQUEST_OPTIONS);
  }
}
