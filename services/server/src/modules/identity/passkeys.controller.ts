import { Body, Controller, Delete, Get, HttpCode, Param, Post, Req, Res, UnauthorizedException } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import {
  type AddPasskeyRequest,
  addPasskeyRequestSchema,
  type LoginResponse,
  loginResponseSchema,
  MFA_MESSAGES,
  type MessageResponse,
  messageResponseSchema,
  PASSKEY_MESSAGES,
  type PasskeyAddedResponse,
  passkeyAddedResponseSchema,
  passkeyAuthenticationOptionsSchema,
  type PasskeyOptionsRequest,
  passkeyOptionsRequestSchema,
  type PasskeySignInRequest,
  type PasskeyStepUpRequest,
  passkeyStepUpRequestSchema,
  passkeySignInRequestSchema,
  passkeyRegistrationOptionsSchema,
  type PasskeysResponse,
  passkeysResponseSchema,
  type User,
} from '@seatlink/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ClientIp, CurrentSession, CurrentUser, Public, StepUp } from '../../infra/http/auth.decorators.js';
import { commandIdOf, CommandId } from '../../infra/http/command-id.js';
import { NoIdempotencyKey } from '../../infra/http/idempotency.interceptor.js';
import { Answers } from '../../infra/http/openapi.decorators.js';
import { ReadModelWaiter } from '../../infra/subscriptions/read-model-waiter.js';
import { Throttled } from '../../infra/throttle/throttled.guard.js';
import { AuthTokensService } from './auth-tokens.service.js';
import { CREDENTIAL_ID, Passkeys } from './passkeys.service.js';
import { SessionPolicy } from './session-policy.js';
import { SessionsService } from './sessions.service.js';
import { SignIns } from './sign-ins.service.js';
import { newRecoveryCodes, recoveryCodeHash } from './totp.service.js';
import { PASSKEY_REFUSALS } from './user.decider.js';
import { UserAccounts } from './user-accounts.service.js';
import { UserCommandMessage } from './user.command.js';
import { clock } from '../../shared/clock.js';

/**
 * Passkeys: the signed-in user adds them (after a fresh proof, as for an app: a stolen session must not add its own
 * way in) and removes them; anyone signs in with one — after the password, as the second factor (with the sign-in's
 * `mfa_token`), or without a password at all, the passkey verifying the person itself.
 */
@Controller('v1')
export class PasskeysController {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly accounts: UserAccounts,
    private readonly passkeys: Passkeys,
    private readonly tokens: AuthTokensService,
    private readonly signIns: SignIns,
    private readonly sessions: SessionsService,
    private readonly policy: SessionPolicy,
    private readonly waiter: ReadModelWaiter,
  ) {}

  @Get('me/passkeys')
  @Answers(passkeysResponseSchema)
  async list(@CurrentUser() user: User): Promise<PasskeysResponse> {
    return { passkeys: await this.passkeys.list(await this.accounts.state(user.id)) };
  }

  @Post('me/passkeys/options')
  @HttpCode(200)
  @StepUp()
  @NoIdempotencyKey()
  @Answers(passkeyRegistrationOptionsSchema)
  async registrationOptions(@CurrentUser() user: User) {
    return this.passkeys.registrationOptions(await this.accounts.state(user.id));
  }

  /**
   * Records the passkey the browser made for the options given to this user. The account's first second factor comes
   * with recovery codes, shown this once, and ends every other session (as turning on an app does).
   */
  @Post('me/passkeys')
  @HttpCode(201)
  @NoIdempotencyKey()
  @Answers(passkeyAddedResponseSchema)
  async add(
    @Body({ schema: addPasskeyRequestSchema }) body: AddPasskeyRequest,
    @CurrentUser() user: User,
    @CurrentSession() session: string,
    @ClientIp() ip: string,
    @CommandId() commandId: string,
  ): Promise<PasskeyAddedResponse> {
    const made = await this.passkeys.verifyRegistration(user.id, body.response);
    const codes = newRecoveryCodes();
    const name = body.name.trim();
    const now = clock.now().toISOString();
    const result = await this.commandBus.execute(
      new UserCommandMessage(
        {
          type: 'AddPasskey',
          data: {
            userId: user.id,
            ...made,
            name,
            recoveryCodeHashes: codes.map((c) => recoveryCodeHash(c.replace('-', ''))),
            now,
          },
        },
        { actorId: user.id, ip, commandId },
      ),
    );
    const added = result.events.find((e) => e.type === 'PasskeyAdded');
    const first = Boolean(added?.type === 'PasskeyAdded' && added.data.recoveryCodeHashes);
    if (first) {
      const others = (await this.sessions.liveFor(user.id)).map((x) => x.tokenHash).filter((h) => h !== session);
      await this.policy.endSessionsOf(user.id, others);
    }
    await this.waiter.pending(result);
    return {
      message: PASSKEY_MESSAGES.added,
      passkey: { id: made.credentialId, name, created_at: now, last_used_at: null },
      ...(first ? { recovery_codes: codes } : {}),
    };
  }

  @Delete('me/passkeys/:id')
  @HttpCode(200)
  @StepUp()
  @Answers(messageResponseSchema)
  async remove(
    @Param('id') id: string,
    @CurrentUser() user: User,
    @ClientIp() ip: string,
    @CommandId() commandId: string,
  ): Promise<MessageResponse> {
    if (!CREDENTIAL_ID.test(id)) throw PASSKEY_REFUSALS.notFound();
    const result = await this.commandBus.execute(
      new UserCommandMessage(
        { type: 'RemovePasskey', data: { userId: user.id, credentialId: id, now: clock.now().toISOString() } },
        { actorId: user.id, ip, commandId },
      ),
    );
    await this.passkeys.forget(user.id, id);
    await this.waiter.pending(result);
    return { message: PASSKEY_MESSAGES.removed };
  }

  /** The options for confirming it is the user (a step-up) with one of their passkeys. */
  @Post('me/step-up/passkey/options')
  @HttpCode(200)
  @NoIdempotencyKey()
  @Answers(passkeyAuthenticationOptionsSchema)
  async stepUpOptions(@CurrentUser() user: User) {
    const state = await this.accounts.state(user.id);
    if (state.passkeys.length === 0) throw PASSKEY_REFUSALS.notFound();
    return this.passkeys.authenticationOptions('step_up', state);
  }

  /** Confirms it is the user with the passkey's answer: the session is proven from now, as a code would make it. */
  @Post('me/step-up/passkey')
  @HttpCode(200)
  @NoIdempotencyKey()
  @Answers(messageResponseSchema)
  async stepUp(
    @Body({ schema: passkeyStepUpRequestSchema }) body: PasskeyStepUpRequest,
    @CurrentUser() user: User,
    @CurrentSession() session: string,
  ): Promise<MessageResponse> {
    const stateOf = (id: string) => this.accounts.state(id);
    const used = await this.passkeys.verifyAuthentication('step_up', body.response, user.id, stateOf, 400);
    await this.sessions.markProven(session);
    await this.passkeys.recordUse(used);
    return { message: MFA_MESSAGES.confirmed };
  }

  /** The options for a sign-in with a passkey: for the user of `mfa_token` (a second factor), or for anyone. */
  @Public()
  @Post('auth/passkey/options')
  @HttpCode(200)
  @Throttled('public')
  @NoIdempotencyKey()
  @Answers(passkeyAuthenticationOptionsSchema)
  async signInOptions(@Body({ schema: passkeyOptionsRequestSchema }) body: PasskeyOptionsRequest) {
    if (body.mfa_token === undefined) return this.passkeys.authenticationOptions('sign_in', null);
    const userId = await this.tokens.peek(body.mfa_token, 'mfa');
    if (!userId) throw mfaTokenInvalid();
    const state = await this.accounts.state(userId);
    if (state.passkeys.length === 0) throw PASSKEY_REFUSALS.invalid();
    return this.passkeys.authenticationOptions('second_factor', state);
  }

  /**
   * Signs in with the browser's answer to those options. With `mfa_token`, the passkey finishes a sign-in whose
   * password was right (the token is used up, once; a password changed since voids it); without, it signs in alone.
   */
  @Public()
  @Post('auth/passkey')
  @HttpCode(200)
  @Throttled('public')
  @NoIdempotencyKey()
  @Answers(loginResponseSchema)
  async signIn(
    @Body({ schema: passkeySignInRequestSchema }) body: PasskeySignInRequest,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<LoginResponse> {
    let userId: string | null = null;
    if (body.mfa_token !== undefined) {
      userId = await this.tokens.peek(body.mfa_token, 'mfa');
      if (!userId) throw mfaTokenInvalid();
    }
    const purpose = userId === null ? 'sign_in' : 'second_factor';
    const used = await this.passkeys.verifyAuthentication(purpose, body.response, userId, (id) =>
      this.accounts.state(id),
    );
    if (body.mfa_token !== undefined) {
      const redeemed = await this.tokens.redeem(body.mfa_token, 'mfa');
      if (!redeemed) throw mfaTokenInvalid();
      const before = await this.accounts.state(used.userId);
      if (before.passwordChangedAt && Date.parse(before.passwordChangedAt) >= redeemed.issuedAt.getTime()) {
        throw mfaTokenInvalid();
      }
    }
    const recorded = await this.commandBus.execute(
      new UserCommandMessage(
        {
          type: 'SignInWithPasskey',
          data: { userId: used.userId, credentialId: used.credentialId, now: clock.now().toISOString() },
        },
        { actorId: used.userId, ip: request.ip, commandId: commandIdOf(request) },
      ),
    );
    await this.passkeys.recordUse(used);
    return this.signIns.complete(request, reply, recorded.state, recorded);
  }
}

const mfaTokenInvalid = () =>
  new UnauthorizedException({ message: MFA_MESSAGES.tokenInvalid, code: 'MFA_TOKEN_INVALID' });
