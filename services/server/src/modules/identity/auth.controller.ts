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
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import {
  type LoginRequest,
  type LoginResponse,
  loginRequestSchema,
  type PublicConfig,
  type User,
} from '@seatlink/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CAPTCHA_VERIFIER, type CaptchaVerifier, requireHuman } from '../../infra/captcha/captcha.port.js';
import { DATABASE } from '../../infra/db/database.module.js';
import type { Database } from '../../infra/db/database.js';
import { ProjectionWaiter } from '../../infra/projections/projection-waiter.js';
import { THROTTLE_MESSAGES, ThrottleService } from '../../infra/throttle/throttle.service.js';
import { CurrentUser, Public } from './auth.decorators.js';
import { GetUserQuery } from './get-user.query.js';
import { PasswordHasher } from './password-hasher.js';
import { findCredentialsByEmail } from './read-models/users/users.queries.js';
import { SESSION_COOKIE, SessionsService } from './sessions.service.js';
import { UserCommandMessage } from './user-command.handler.js';

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

const INVALID = { message: 'Invalid email or password', code: 'INVALID_CREDENTIALS' } as const;

@Controller('v1')
export class AuthController {
  /** Verified against when the e-mail is unknown, so both failures take the same time. */
  private dummyHash: Promise<string> | null = null;

  constructor(
    private readonly commandBus: CommandBus,
    private readonly queryBus: QueryBus,
    private readonly sessions: SessionsService,
    private readonly hasher: PasswordHasher,
    private readonly waiter: ProjectionWaiter,
    private readonly throttle: ThrottleService,
    @Inject(CAPTCHA_VERIFIER) private readonly captcha: CaptchaVerifier,
    @Inject(DATABASE) private readonly database: Database,
  ) {}

  /** What the browser needs at run time. */
  @Public()
  @Get('config')
  config(): PublicConfig {
    return { captcha_site_key: this.captcha.siteKey };
  }

  /**
   * Sign-in. Failed attempts count per account and per IP; past the limit the answer is 429 RATE_LIMITED until the
   * window passes (a success clears the account's count).
   */
  @Public()
  @Post('auth')
  @HttpCode(200)
  async login(
    @Body({ schema: loginRequestSchema }) body: LoginRequest,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<LoginResponse> {
    const accountKey = body.email;
    await this.throttle.assertAllowed('login-ip', request.ip, THROTTLE_MESSAGES.login);
    await this.throttle.assertAllowed('login-account', accountKey, THROTTLE_MESSAGES.login);
    await requireHuman(this.captcha, body.token, 'login', request.ip);
    const credentials = await findCredentialsByEmail(this.database.db, body.email);
    const ok = credentials
      ? await this.hasher.verify(credentials.passwordHash, body.password)
      : await this.hasher.verify(await this.getDummyHash(), body.password).then(() => false);
    if (!credentials || !ok) {
      await this.throttle.penalize('login-ip', request.ip);
      await this.throttle.penalize('login-account', accountKey);
      throw new UnauthorizedException(INVALID);
    }
    if (credentials.isBanned) {
      throw new ForbiddenException({ message: 'Your account has been banned', code: 'ACCOUNT_BANNED' });
    }
    if (!credentials.emailVerified) {
      throw new ForbiddenException({
        message: 'Please verify your email address before signing in',
        code: 'EMAIL_NOT_VERIFIED',
      });
    }
    await this.throttle.reset('login-account', accountKey);
    const { token, expiresAt } = await this.sessions.create(credentials.id, {
      ip: request.ip,
      userAgent: request.headers['user-agent'],
    });
    const { position } = await this.commandBus.execute(
      new UserCommandMessage(
        { type: 'RecordLogin', data: { userId: credentials.id, now: new Date().toISOString() } },
        { actorId: credentials.id, ip: request.ip },
      ),
    );
    await this.waiter.waitFor(position);
    reply.setCookie(SESSION_COOKIE, token, sessionCookieOptions(request, expiresAt));
    const user = await this.queryBus.execute(new GetUserQuery(credentials.id));
    if (!user) throw new UnauthorizedException(INVALID);
    return { user };
  }

  @Public()
  @Post('logout')
  @HttpCode(200)
  async logout(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    await this.sessions.end(request.cookies[SESSION_COOKIE]);
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
