import {
  Body,
  Controller,
  ForbiddenException,
  Get,
  HttpCode,
  Inject,
  Post,
  Req,
  Res,
  UnauthorizedException,
} from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import {
  type LoginRequest,
  type LoginResponse,
  loginRequestSchema,
  type PublicConfig,
  type User,
} from '@seatlink/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CAPTCHA_VERIFIER, type CaptchaVerifier } from '../../infra/captcha/captcha.port.js';
import { HumanCheck } from '../../infra/captcha/human-check.guard.js';
import { REALTIME_PUBLISHER, type RealtimePublisher } from '../../infra/realtime/realtime.publisher.js';
import { commandIdOf } from '../../infra/http/command-id.js';
import { NoIdempotencyKey } from '../../infra/http/idempotency.interceptor.js';
import { ReadModelWaiter } from '../../infra/subscriptions/read-model-waiter.js';
import { ThrottleService } from '../../infra/throttle/throttle.service.js';
import { signInAccount, Throttled } from '../../infra/throttle/throttled.guard.js';
import { CurrentUser, Public } from './auth.decorators.js';
import { PasswordHasher } from './password-hasher.js';
import { SESSION_COOKIE, SessionsService } from './sessions.service.js';
import { toUser, UserAccounts } from './user-accounts.service.js';
import { UserCommandMessage } from './user.command.js';

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** HttpOnly, SameSite=Lax; Secure everywhere but on localhost (where the dashboard runs over plain HTTP). */
export function sessionCookieOptions(request: FastifyRequest, expires?: Date) {
  return {
    path: '/',
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: !LOCAL_HOSTS.has(request.hostname.replace(/:\d+$/, '')),
    ...(expires ? { expires } : {}),
  };
}

/** How long sign-in waits at most for the users read model to show the sign-in. */
const LOGIN_READ_MODEL_WAIT_MS = 300;

const INVALID = { message: 'Invalid email or password', code: 'INVALID_CREDENTIALS' } as const;

@Controller('v1')
export class AuthController {
  /** Verified against when the e-mail is unknown, so both failures take the same time. */
  private dummyHash: Promise<string> | null = null;

  constructor(
    private readonly commandBus: CommandBus,
    private readonly sessions: SessionsService,
    private readonly hasher: PasswordHasher,
    private readonly accounts: UserAccounts,
    private readonly waiter: ReadModelWaiter,
    private readonly throttle: ThrottleService,
    @Inject(CAPTCHA_VERIFIER) private readonly captcha: CaptchaVerifier,
    @Inject(REALTIME_PUBLISHER) private readonly realtime: RealtimePublisher,
  ) {}

  /** What the browser needs at run time. */
  @Public()
  @Get('config')
  config(): PublicConfig {
    return { captcha_site_key: this.captcha.siteKey };
  }

  /**
   * Sign-in. Every attempt counts, before the password is checked, per account from this IP, per account and per IP;
   * past a limit the answer is 429 RATE_LIMITED until the window passes. A correct password forgives its attempt and
   * clears the account's count from this IP. The password, ban and verification are checked against the
   * user's own streams, not a read model that may lag: a ban or a new password holds from the moment it is made.
   */
  @Public()
  @Post('auth')
  @HttpCode(200)
  @HumanCheck('login')
  @Throttled('sign-in')
  @NoIdempotencyKey()
  async login(
    @Body({ schema: loginRequestSchema }) body: LoginRequest,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<LoginResponse> {
    const account = await this.accounts.byEmail(body.email);
    const ok = account
      ? await this.hasher.verify(account.passwordHash, body.password)
      : await this.hasher.verify(await this.getDummyHash(), body.password).then(() => false);
    if (!account || !ok) throw new UnauthorizedException(INVALID);
    await this.throttle.forgiveSignIn(signInAccount(body), request.ip);
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
    const { token, expiresAt } = await this.sessions.create(userId, {
      ip: request.ip,
      userAgent: request.headers['user-agent'],
    });
    const now = new Date().toISOString();
    const recorded = await this.commandBus.execute(
      new UserCommandMessage(
        { type: 'RecordLogin', data: { userId, now } },
        { actorId: userId, ip: request.ip, commandId: commandIdOf(request) },
      ),
    );
    // A short courtesy wait, so that the next GET /v1/me shows this sign-in; never long (sign-in must stay quick
    // when the read models lag): the answer below carries it either way.
    await this.waiter.pending(recorded, LOGIN_READ_MODEL_WAIT_MS);
    reply.setCookie(SESSION_COOKIE, token, sessionCookieOptions(request, expiresAt));
    // The answer is the user with this sign-in in it, whether or not the read model shows it yet.
    const known = (await this.accounts.getUser(userId)) ?? toUser(account);
    return {
      user: { ...known, email_verified: true, is_banned: false, last_logged_in_at: new Date(now).toISOString() },
    };
  }

  /** Ends the session, and closes the sockets it opened (on every API process). */
  @Public()
  @Post('logout')
  @HttpCode(200)
  @NoIdempotencyKey()
  async logout(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const ended = await this.sessions.end(request.cookies[SESSION_COOKIE]);
    if (ended) this.realtime.disconnectSession(ended, 'logout');
    reply.clearCookie(SESSION_COOKIE, sessionCookieOptions(request));
    return { message: 'Logged out' };
  }

  @Get('me')
  me(@CurrentUser() user: User): User {
    return user;
  }

  private getDummyHash() {
    this.dummyHash ??= this.hasher.hash('not-a-real-password-0');
    return this.dummyHash;
  }
}
