import { BadRequestException, Body, ConflictException, Controller, HttpCode, Inject, Post, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import {
  type EmailRequest,
  emailRequestSchema,
  IDENTITY_MESSAGES,
  type MessageResponse,
  type RegisterRequest,
  registerRequestSchema,
  type ResetPasswordRequest,
  resetPasswordRequestSchema,
  type TokenRequest,
  tokenRequestSchema,
} from '@seatlink/contracts';
import type { FastifyRequest } from 'fastify';
import { CAPTCHA_VERIFIER, type CaptchaVerifier, requireHuman } from '../../infra/captcha/captcha.port.js';
import { DATABASE } from '../../infra/db/database.module.js';
import type { Database } from '../../infra/db/database.js';
import { ProjectionWaiter } from '../../infra/projections/projection-waiter.js';
import { THROTTLE_MESSAGES, ThrottleService } from '../../infra/throttle/throttle.service.js';
import { Public } from './auth.decorators.js';
import { AuthTokensService } from './auth-tokens.service.js';
import { IdentityMailService } from './identity-mail.service.js';
import { PasswordHasher } from './password-hasher.js';
import { findCredentialsByEmail } from './read-models/users/users.queries.js';
import { RegisterUserCommand } from './register-user.handler.js';
import { SessionsService } from './sessions.service.js';
import { UserCommandMessage } from './user-command.handler.js';

/**
 * What a visitor does without a session: register with an invite code, verify the e-mail address, and reset a
 * forgotten password. Every call counts against the caller's IP; the answers never tell whether an e-mail exists.
 */
@Controller('v1')
@Public()
export class AccountController {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly tokens: AuthTokensService,
    private readonly identityMail: IdentityMailService,
    private readonly hasher: PasswordHasher,
    private readonly sessions: SessionsService,
    private readonly waiter: ProjectionWaiter,
    private readonly throttle: ThrottleService,
    @Inject(CAPTCHA_VERIFIER) private readonly captcha: CaptchaVerifier,
    @Inject(DATABASE) private readonly database: Database,
  ) {}

  @Post('auth/register')
  @HttpCode(201)
  async register(
    @Body({ schema: registerRequestSchema }) body: RegisterRequest,
    @Req() request: FastifyRequest,
  ): Promise<MessageResponse> {
    await this.throttle.consume('public-ip', request.ip, THROTTLE_MESSAGES.public);
    await requireHuman(this.captcha, body.token, 'register', request.ip);
    if (await findCredentialsByEmail(this.database.db, body.email)) {
      throw new ConflictException({ message: 'An account with this email already exists', code: 'EMAIL_TAKEN' });
    }
    const { userId, position } = await this.commandBus.execute(
      new RegisterUserCommand({
        email: body.email,
        password: body.password,
        firstName: body.first_name,
        lastName: body.last_name,
        isAdmin: false,
        emailVerified: false,
        inviteCode: body.invite_code,
        ip: request.ip,
      }),
    );
    await this.waiter.waitFor(position);
    await this.identityMail.sendVerification(userId);
    return { message: IDENTITY_MESSAGES.registered };
  }

  @Post('auth/resend-verification')
  @HttpCode(200)
  async resendVerification(
    @Body({ schema: emailRequestSchema }) body: EmailRequest,
    @Req() request: FastifyRequest,
  ): Promise<MessageResponse> {
    await this.throttle.consume('public-ip', request.ip, THROTTLE_MESSAGES.public);
    const credentials = await findCredentialsByEmail(this.database.db, body.email);
    if (credentials && !credentials.emailVerified && !credentials.isBanned)
      await this.identityMail.sendVerification(credentials.id);
    return { message: IDENTITY_MESSAGES.verificationSent };
  }

  /** Failure answers carry the error in field `error` (SPEC.md §7). */
  @Post('auth/verify-email')
  @HttpCode(200)
  async verifyEmail(
    @Body({ schema: tokenRequestSchema }) body: TokenRequest,
    @Req() request: FastifyRequest,
  ): Promise<MessageResponse> {
    await this.throttle.consume('public-ip', request.ip, THROTTLE_MESSAGES.public);
    const userId = await this.tokens.consume(body.token, 'verify_email');
    if (!userId) {
      throw new BadRequestException({
        error: IDENTITY_MESSAGES.verificationInvalid,
        message: IDENTITY_MESSAGES.verificationInvalid,
      });
    }
    const { position } = await this.commandBus.execute(
      new UserCommandMessage(
        { type: 'VerifyEmail', data: { userId, now: new Date().toISOString() } },
        { actorId: userId, ip: request.ip },
      ),
    );
    await this.waiter.waitFor(position);
    return { message: IDENTITY_MESSAGES.emailVerified };
  }

  @Post('forgot-password')
  @HttpCode(200)
  async forgotPassword(
    @Body({ schema: emailRequestSchema }) body: EmailRequest,
    @Req() request: FastifyRequest,
  ): Promise<MessageResponse> {
    await this.throttle.consume('public-ip', request.ip, THROTTLE_MESSAGES.public);
    const credentials = await findCredentialsByEmail(this.database.db, body.email);
    if (credentials && !credentials.isBanned) await this.identityMail.sendPasswordReset(credentials.id);
    return { message: IDENTITY_MESSAGES.forgotPassword };
  }

  @Post('auth/validate-reset-token')
  @HttpCode(200)
  async validateResetToken(
    @Body({ schema: tokenRequestSchema }) body: TokenRequest,
    @Req() request: FastifyRequest,
  ): Promise<MessageResponse> {
    await this.throttle.consume('public-ip', request.ip, THROTTLE_MESSAGES.public);
    if (!(await this.tokens.peek(body.token, 'reset_password'))) {
      throw new BadRequestException(IDENTITY_MESSAGES.resetTokenInvalid);
    }
    return { message: IDENTITY_MESSAGES.resetTokenValid };
  }

  /** Sets the new password and ends every session of the user. */
  @Post('auth/reset-password')
  @HttpCode(200)
  async resetPassword(
    @Body({ schema: resetPasswordRequestSchema }) body: ResetPasswordRequest,
    @Req() request: FastifyRequest,
  ): Promise<MessageResponse> {
    await this.throttle.consume('public-ip', request.ip, THROTTLE_MESSAGES.public);
    const userId = await this.tokens.consume(body.token, 'reset_password');
    if (!userId) throw new BadRequestException(IDENTITY_MESSAGES.resetTokenInvalid);
    const passwordHash = await this.hasher.hash(body.password);
    const { position } = await this.commandBus.execute(
      new UserCommandMessage(
        { type: 'ChangePassword', data: { userId, passwordHash, now: new Date().toISOString() } },
        { actorId: userId, ip: request.ip },
      ),
    );
    await this.waiter.waitFor(position);
    await this.sessions.endAllFor(userId);
    return { message: IDENTITY_MESSAGES.passwordReset };
  }
}
