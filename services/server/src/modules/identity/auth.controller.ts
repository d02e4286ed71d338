import { randomUUID } from 'node:crypto';
import {
  BadRequestException,
  Body,
  Controller,
  ForbiddenException,
  Get,
  HttpCode,
  Inject,
  Logger,
  Post,
  Req,
  Res,
  UnauthorizedException,
} from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import {
  IDENTITY_MESSAGES,
  type LoginRequest,
  MFA_MESSAGES,
  PASSKEY_MESSAGES,
  type SecondFactorMethod,
  type LoginResponse,
  loginRequestSchema,
  loginResponseSchema,
  type MessageResponse,
  messageResponseSchema,
  type PublicConfig,
  publicConfigSchema,
  QueueName,
  type SessionResponse,
  sessionResponseSchema,
  SIGN_IN_LINK_SENT,
  type TokenRequest,
  tokenRequestSchema,
  type User,
  userSchema,
} from '@seatlink/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CAPTCHA_VERIFIER, type CaptchaVerifier } from '../../infra/captcha/captcha.port.js';
import { HumanCheck } from '../../infra/captcha/human-check.guard.js';
import { safeErrorMessage } from '../../infra/db/db-errors.js';
import { JOB_QUEUE, type JobQueue } from '../../infra/queue/queue.port.js';
import { commandIdOf } from '../../infra/http/command-id.js';
import { NoIdempotencyKey } from '../../infra/http/idempotency.interceptor.js';
import { Answers } from '../../infra/http/openapi.decorators.js';
import { SESSION_COOKIE } from '../../infra/http/session-cookie.js';
import { ThrottleService } from '../../infra/throttle/throttle.service.js';
import { signInAccount, signInNeedsSecondProof, Throttled } from '../../infra/throttle/throttled.guard.js';
import { CurrentUser, Public } from '../../infra/http/auth.decorators.js';
import { DomainError } from '../../shared/event-sourcing/decider.js';
import { AuthTokensService } from './auth-tokens.service.js';
import {
  IDENTITY_REQUEST_OPTIONS,
  RequestSignInLinkJob,
  type SignInLinkRequestData,
} from './identity-requests.jobs.js';
import { PasswordHasher } from './password-hasher.js';
import { SessionPolicy } from './session-policy.js';
import { hasSecondFactor, type UserState } from './user.decider.js';
import { sessionCookieOptions } from './session-cookie-options.js';
import { SignIns } from './sign-ins.service.js';
import { UserAccounts } from './user-accounts.service.js';
import { UserCommandMessage } from './user.command.js';
import { clock } from '../../shared/clock.js';

const INVALID = { message: 'Invalid email or password', code: 'INVALID_CREDENTIALS' } as const;
/** The answer past an account's count from anywhere: the same for a right password, a wrong one and an unknown address. */
const LINK_SENT = { message: IDENTITY_MESSAGES.signInLinkSent, code: SIGN_IN_LINK_SENT } as const;

@Controller('v1')
export class AuthController {
  private readonly logger = new Logger('SignIn');
  /** Verified against when the e-mail is unknown, so both failures take the same time. */
  private dummyHash: Promise<string> | null = null;

  constructor(
    private readonly commandBus: CommandBus,
    private readonly hasher: PasswordHasher,
    private readonly accounts: UserAccounts,
    private readonly signIns: SignIns,
    private readonly throttle: ThrottleService,
    private readonly tokens: AuthTokensService,
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
    @Inject(CAPTCHA_VERIFIER) private readonly captcha: CaptchaVerifier,
    private readonly policy: SessionPolicy,
  ) {}

  /** What the browser needs at run time. */
  @Public()
  @Get('config')
  @Answers(publicConfigSchema)
  config(): PublicConfig {
    return { captcha_site_key: this.captcha.siteKey };
  }

  /**
   * Sign-in. Every attempt counts, before the password is checked, per account from this IP, per account and per IP;
   * past the per-IP limits the answer is 429 RATE_LIMITED until the window passes. A correct password forgives its
   * attempt and clears the account's count from this IP. The password, ban and verification are checked against the
   * user's own streams, not a read model that may lag: a ban or a new password holds from the moment it is made.
   *
   * Past the account's count from anywhere (an attack spread over many addresses) nobody is refused, so nobody can
   * lock the owner out; instead a sign-in needs a second proof. Every attempt then gets the same answer, 401
   * SIGN_IN_LINK_SENT — right password or wrong, known address or not, so it tells a guesser nothing — and only the
   * right password has a one-time link e-mailed to the account, which signs in (POST /v1/auth/sign-in-link). The right
   * password from an address the account fully signed in from before signs in as usual.
   */
  @Public()
  @Post('auth')
  @HttpCode(200)
  @HumanCheck('login')
  @Throttled('sign-in')
  @NoIdempotencyKey()
  @Answers(loginResponseSchema)
  async login(
    @Body({ schema: loginRequestSchema }) body: LoginRequest,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<LoginResponse> {
    const account = await this.accounts.byEmail(body.email);
    const ok = account
      ? await this.hasher.verify(account.passwordHash, body.password)
      : await this.hasher.verify(await this.getDummyHash(), body.password).then(() => false);
    const key = signInAccount(body);
    if (signInNeedsSecondProof(request)) {
      // Asked for every attempt, right or wrong, so its time tells nothing about the password.
      const known = await this.throttle.knownSignIn(key, request.ip);
      if (!(account && ok && known)) {
        if (account && ok) this.sendSignInLink(account, key, request.ip);
        throw new UnauthorizedException(LINK_SENT);
      }
    }
    if (!account || !ok) throw new UnauthorizedException(INVALID);
    await this.throttle.forgiveSignIn(key, request.ip);
    if (account.banned) {
      throw new ForbiddenException({ message: 'Your account has been banned', code: 'ACCOUNT_BANNED' });
    }
    if (!account.emailVerified) {
      throw new ForbiddenException({
        message: 'Please verify your email address before signing in',
        code: 'EMAIL_NOT_VERIFIED',
      });
    }
    const userId = account.userId!;
    if (hasSecondFactor(account)) {
      // The password was right; the second factor finishes the sign-in (POST /v1/auth/mfa or /v1/auth/passkey), within
      // MFA_TOKEN_TTL_MS.
      throw await this.secondFactorRequired(account);
    }
    const recorded = await this.commandBus.execute(
      new UserCommandMessage(
        { type: 'RecordLogin', data: { userId, now: clock.now().toISOString() } },
        { actorId: userId, ip: request.ip, commandId: commandIdOf(request) },
      ),
    );
    return this.signIns.complete(request, reply, account, recorded);
  }

  /**
   * Signs in with the one-time link e-mailed when a sign-in needed a second proof: single use, 15 minutes, void once
   * the password changes; a banned user is refused as at sign-in. The link's page sends it when the person presses
   * its button (a mail scanner that opens links does not use it up).
   */
  @Public()
  @Post('auth/sign-in-link')
  @HttpCode(200)
  @Throttled('public')
  @NoIdempotencyKey()
  @Answers(loginResponseSchema)
  async signInWithLink(
    @Body({ schema: tokenRequestSchema }) body: TokenRequest,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<LoginResponse> {
    const redeemed = await this.tokens.redeem(body.token, 'sign_in');
    if (!redeemed) {
      throw new BadRequestException({ message: IDENTITY_MESSAGES.signInLinkInvalid, code: 'SIGN_IN_LINK_INVALID' });
    }
    const { userId } = redeemed;
    const now = clock.now().toISOString();
    // The user's stream decides (banned, password changed since the link was sent) before any session is made.
    const recorded = await this.commandBus.execute(
      new UserCommandMessage(
        { type: 'SignInWithLink', data: { userId, linkIssuedAt: redeemed.issuedAt.toISOString(), now } },
        { actorId: userId, ip: request.ip, commandId: commandIdOf(request) },
      ),
    );
    // The link stands for the password, not for the second factor: an account with one still asks for it.
    if (hasSecondFactor(recorded.state)) throw await this.secondFactorRequired(recorded.state);
    return this.signIns.complete(request, reply, recorded.state, recorded);
  }

  /** Ends the session, and closes the sockets it opened (on every API process). */
  @Public()
  @Post('logout')
  @HttpCode(200)
  @NoIdempotencyKey()
  @Answers(messageResponseSchema)
  async logout(
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<MessageResponse> {
    await this.policy.endSession(request.cookies[SESSION_COOKIE]);
    reply.clearCookie(SESSION_COOKIE, sessionCookieOptions(request));
    return { message: 'Logged out' };
  }

  @Get('me')
  @Answers(userSchema)
  me(@CurrentUser() user: User): User {
    return user;
  }

  /**
   * Who is signed in, for the dashboard's status check at start: the user, or null for a visitor, an ended or expired
   * session and a banned account (whose sessions end, as at any call). Always 200: a visitor's browser logs no failed
   * request for a question whose answer "nobody" is no error.
   */
  @Public()
  @Get('session')
  @Answers(sessionResponseSchema)
  async session(@Req() request: FastifyRequest): Promise<SessionResponse> {
    const admitted = await this.policy.authenticate(request.cookies[SESSION_COOKIE]);
    return { user: admitted.ok ? admitted.user : null };
  }

  /**
   * Queues the one-time link (a job appends SignInLinkRequested; a reaction mails it). Not awaited: the answer must
   * take as long as for a wrong password, which sends nothing. A lost request only means the owner signs in again.
   */
  private sendSignInLink(account: UserState, key: string, ip: string) {
    const data: SignInLinkRequestData = {
      requestId: randomUUID(),
      userId: account.userId!,
      at: clock.now().toISOString(),
      ip,
    };
    void Promise.all([
      this.throttle.forgiveSignIn(key, ip),
      this.queue.add(QueueName.Identity, RequestSignInLinkJob.jobName, data, IDENTITY_REQUEST_OPTIONS),
    ]).catch((err: unknown) => this.logger.warn(`sign-in link not requested: ${safeErrorMessage(err)}`));
  }

  /**
   * The 401 that asks for the second factor, with the token that lets POST /v1/auth/mfa (a code) or /v1/auth/passkey
   * finish this sign-in, and the ways the account has to finish it.
   */
  private async secondFactorRequired(account: UserState): Promise<DomainError> {
    const mfaToken = await this.tokens.issue(account.userId!, 'mfa');
    const methods: SecondFactorMethod[] = [
      ...(account.totpEnabled ? (['totp'] as const) : []),
      ...(account.passkeys.length > 0 ? (['passkey'] as const) : []),
      'recovery_code',
    ];
    const message = account.totpEnabled ? MFA_MESSAGES.required : PASSKEY_MESSAGES.required;
    return new DomainError(message, 'MFA_REQUIRED', 401, { mfa_token: mfaToken, methods });
  }

  private getDummyHash() {
    this.dummyHash ??= this.hasher.hash('not-a-real-password-0');
    return this.dummyHash;
  }
}
