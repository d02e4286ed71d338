import {
  BadRequestException,
  Body,
  Inject,
  ConflictException,
  Controller,
  Get,
  HttpCode,
  Post,
  Req,
  Res,
  UnauthorizedException,
} from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import {
  type LoginResponse,
  loginResponseSchema,
  MFA_MESSAGES,
  type MessageResponse,
  messageResponseSchema,
  type MfaSignInRequest,
  mfaSignInRequestSchema,
  type MfaStatus,
  mfaStatusSchema,
  type StepUpRequest,
  stepUpRequestSchema,
  type TotpConfirmRequest,
  totpConfirmRequestSchema,
  type TotpConfirmResponse,
  totpConfirmResponseSchema,
  type TotpDisableRequest,
  totpDisableRequestSchema,
  type TotpEnrolmentResponse,
  totpEnrolmentResponseSchema,
  type User,
} from '@seatlink/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { APP_CONFIG, type AppConfig } from '../../infra/config/config.js';
import { ClientIp, CurrentSession, CurrentUser, Public, StepUp } from '../../infra/http/auth.decorators.js';
import { commandIdOf, CommandId } from '../../infra/http/command-id.js';
import { NoIdempotencyKey } from '../../infra/http/idempotency.interceptor.js';
import { Answers } from '../../infra/http/openapi.decorators.js';
import { ReadModelWaiter } from '../../infra/subscriptions/read-model-waiter.js';
import { THROTTLE_MESSAGES, ThrottleService } from '../../infra/throttle/throttle.service.js';
import { Throttled } from '../../infra/throttle/throttled.guard.js';
import { DomainError } from '../../shared/event-sourcing/decider.js';
import { AuthTokensService } from './auth-tokens.service.js';
import { PasswordHasher } from './password-hasher.js';
import { SessionPolicy } from './session-policy.js';
import { SessionsService } from './sessions.service.js';
import { SignIns } from './sign-ins.service.js';
import { isRecoveryCode, newRecoveryCodes, recoveryCodeHash, TotpService } from './totp.service.js';
import { hasSecondFactor, MFA_REFUSALS } from './user.decider.js';
import { UserAccounts } from './user-accounts.service.js';
import { UserCommandMessage } from './user.command.js';
import { clock } from '../../shared/clock.js';

/**
 * A second factor: the signed-in user turns an authenticator app on (a secret, then its first code, then the recovery
 * codes, shown once) or off (with a fresh code), and a sign-in that answered MFA_REQUIRED is finished with a code of the
 * app or a recovery code. Codes tried are counted per account (`mfa-user`, 429) before they are checked; each code
 * works once.
 */
@Controller('v1')
export class MfaController {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly accounts: UserAccounts,
    private readonly totp: TotpService,
    private readonly tokens: AuthTokensService,
    private readonly throttle: ThrottleService,
    private readonly signIns: SignIns,
    private readonly waiter: ReadModelWaiter,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly sessions: SessionsService,
    private readonly hasher: PasswordHasher,
    private readonly policy: SessionPolicy,
  ) {}

  @Get('me/mfa')
  @Answers(mfaStatusSchema)
  async status(@CurrentUser() user: User): Promise<MfaStatus> {
    const state = await this.accounts.state(user.id);
    return {
      totp: state.totpEnabled,
      passkeys: state.passkeys.length,
      required: user.is_admin && this.config.ADMIN_MFA === 'required',
      recovery_codes_left: state.recoveryCodeHashes.length,
    };
  }

  /** A new secret for the app (again and again until one is confirmed: each replaces the last). */
  @Post('me/mfa/totp')
  @HttpCode(200)
  @StepUp()
  @NoIdempotencyKey()
  @Answers(totpEnrolmentResponseSchema)
  async enrol(@CurrentUser() user: User): Promise<TotpEnrolmentResponse> {
    if ((await this.accounts.state(user.id)).totpEnabled) throw MFA_REFUSALS.alreadyEnabled();
    const started = await this.totp.start(user.id, user.email);
    return { secret: started.secret, otpauth_url: started.otpauthUrl };
  }

  /** The app's first code turns it on: TotpEnabled, and the recovery codes, shown this once. */
  @Post('me/mfa/totp/confirm')
  @HttpCode(200)
  @NoIdempotencyKey()
  @Answers(totpConfirmResponseSchema)
  async confirm(
    @Body({ schema: totpConfirmRequestSchema }) body: TotpConfirmRequest,
    @CurrentUser() user: User,
    @CurrentSession() session: string,
    @ClientIp() ip: string,
    @CommandId() commandId: string,
  ): Promise<TotpConfirmResponse> {
    if ((await this.accounts.state(user.id)).totpEnabled) throw MFA_REFUSALS.alreadyEnabled();
    await this.throttle.consume('mfa-user', user.id, THROTTLE_MESSAGES.mfa);
    const secret = await this.totp.take(user.id, body.code);
    if (!secret) {
      if (!(await this.totp.pending(user.id))) {
        throw new ConflictException({ message: MFA_MESSAGES.noEnrolment, code: 'MFA_NO_ENROLMENT' });
      }
      throw MFA_REFUSALS.invalid();
    }
    const codes = newRecoveryCodes();
    const result = await this.commandBus.execute(
      new UserCommandMessage(
        {
          type: 'EnableTotp',
          data: {
            userId: user.id,
            recoveryCodeHashes: codes.map((c) => recoveryCodeHash(c.replace('-', ''))),
            now: clock.now().toISOString(),
          },
        },
        { actorId: user.id, ip, commandId },
      ),
    );
    await this.totp.confirm(user.id, secret);
    // Turned on from this session: every other session signed in without it ends (a stolen one among them).
    const others = (await this.sessions.liveFor(user.id)).map((x) => x.tokenHash).filter((h) => h !== session);
    await this.policy.endSessionsOf(user.id, others);
    await this.waiter.pending(result);
    return { message: MFA_MESSAGES.enabled, recovery_codes: codes };
  }

  /** A fresh code (of the app, or a recovery code) turns the app off: TotpDisabled, and its secret is forgotten. */
  @Post('me/mfa/totp/disable')
  @HttpCode(200)
  @NoIdempotencyKey()
  @Answers(messageResponseSchema)
  async disable(
    @Body({ schema: totpDisableRequestSchema }) body: TotpDisableRequest,
    @CurrentUser() user: User,
    @ClientIp() ip: string,
    @CommandId() commandId: string,
  ): Promise<MessageResponse> {
    if (!(await this.accounts.state(user.id)).totpEnabled) throw MFA_REFUSALS.notEnabled();
    await this.throttle.consume('mfa-user', user.id, THROTTLE_MESSAGES.mfa);
    const code = body.code;
    const recovery = isRecoveryCode(code) ? recoveryCodeHash(code) : null;
    if (recovery === null && !(await this.totp.take(user.id, code))) throw MFA_REFUSALS.invalid();
    const result = await this.commandBus.execute(
      new UserCommandMessage(
        { type: 'DisableTotp', data: { userId: user.id, recoveryCodeHash: recovery, now: clock.now().toISOString() } },
        { actorId: user.id, ip, commandId },
      ),
    );
    await this.totp.remove(user.id);
    await this.waiter.pending(result);
    return { message: MFA_MESSAGES.disabled };
  }

  /**
   * Confirms it is the user before a call that needs it (403 STEP_UP_REQUIRED): a code of the app or a recovery code
   * when they have an app, else their password. Counted as codes are; the session is proven from now.
   */
  @Post('me/step-up')
  @HttpCode(200)
  @NoIdempotencyKey()
  @Answers(messageResponseSchema)
  async stepUp(
    @Body({ schema: stepUpRequestSchema }) body: StepUpRequest,
    @CurrentUser() user: User,
    @CurrentSession() session: string,
    @ClientIp() ip: string,
    @CommandId() commandId: string,
  ): Promise<MessageResponse> {
    await this.throttle.consume('mfa-user', user.id, THROTTLE_MESSAGES.mfa);
    const state = await this.accounts.state(user.id);
    if (hasSecondFactor(state)) {
      // A code of the app or a recovery code (a passkey confirms through POST /v1/me/step-up/passkey).
      if (!('code' in body)) {
        const message = state.totpEnabled ? MFA_MESSAGES.stepUpCode : MFA_MESSAGES.stepUpPasskey;
        throw new BadRequestException({ message, code: 'MFA_INVALID' });
      }
      const code = body.code;
      if (isRecoveryCode(code)) {
        await this.commandBus.execute(
          new UserCommandMessage(
            {
              type: 'ConfirmWithRecoveryCode',
              data: { userId: user.id, recoveryCodeHash: recoveryCodeHash(code), now: clock.now().toISOString() },
            },
            { actorId: user.id, ip, commandId },
          ),
        );
      } else if (!state.totpEnabled || !(await this.totp.take(user.id, code))) throw MFA_REFUSALS.invalid();
    } else {
      if (!('password' in body)) {
        throw new BadRequestException({ message: MFA_MESSAGES.stepUpPassword, code: 'PASSWORD_INVALID' });
      }
      if (!(await this.hasher.verify(state.passwordHash, body.password))) {
        throw new BadRequestException({ message: MFA_MESSAGES.passwordInvalid, code: 'PASSWORD_INVALID' });
      }
    }
    await this.sessions.markProven(session);
    return { message: MFA_MESSAGES.confirmed };
  }

  /**
   * Finishes a sign-in that answered MFA_REQUIRED: its token (5 minutes, once) and a code of the app or a recovery
   * code. A wrong code leaves the token for another try (within the account's count); a password changed since the
   * token was given voids it.
   */
  @Public()
  @Post('auth/mfa')
  @HttpCode(200)
  @Throttled('public')
  @NoIdempotencyKey()
  @Answers(loginResponseSchema)
  async signIn(
    @Body({ schema: mfaSignInRequestSchema }) body: MfaSignInRequest,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<LoginResponse> {
    const tokenInvalid = () =>
      new UnauthorizedException({ message: MFA_MESSAGES.tokenInvalid, code: 'MFA_TOKEN_INVALID' });
    const userId = await this.tokens.peek(body.mfa_token, 'mfa');
    if (!userId) throw tokenInvalid();
    await this.throttle.consume('mfa-user', userId, THROTTLE_MESSAGES.mfa);
    const code = body.code;
    const recovery = isRecoveryCode(code) ? recoveryCodeHash(code) : null;
    const wrong = () => new UnauthorizedException({ message: MFA_MESSAGES.invalid, code: 'MFA_INVALID' });
    const before = await this.accounts.state(userId);
    if (recovery !== null ? !before.recoveryCodeHashes.includes(recovery) : !(await this.totp.take(userId, code))) {
      throw wrong();
    }
    // The token is used up now, once, whoever else holds it.
    const redeemed = await this.tokens.redeem(body.mfa_token, 'mfa');
    if (!redeemed) throw tokenInvalid();
    if (before.passwordChangedAt && Date.parse(before.passwordChangedAt) >= redeemed.issuedAt.getTime()) {
      throw tokenInvalid();
    }
    let recorded;
    try {
      recorded = await this.commandBus.execute(
        new UserCommandMessage(
          {
            type: 'SignInWithSecondFactor',
            data: { userId, recoveryCodeHash: recovery, now: clock.now().toISOString() },
          },
          { actorId: userId, ip: request.ip, commandId: commandIdOf(request) },
        ),
      );
    } catch (err) {
      // A recovery code unknown or used: a wrong code, as the app's would be.
      if (err instanceof DomainError && err.code === 'MFA_INVALID') throw wrong();
      throw err;
    }
    return this.signIns.complete(request, reply, recorded.state, recorded);
  }
}
