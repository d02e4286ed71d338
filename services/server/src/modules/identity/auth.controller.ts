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
import { type LoginRequest, type LoginResponse, loginRequestSchema, type User } from '@seatlink/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DATABASE } from '../../infra/db/database.module.js';
import type { Database } from '../../infra/db/database.js';
import { ProjectionWaiter } from '../../infra/projections/projection-waiter.js';
import { CurrentUser, Public } from './auth.decorators.js';
import { GetUserQuery } from './get-user.query.js';
import { PasswordHasher } from './password-hasher.js';
import { findCredentialsByEmail } from './read-models/users/users.queries.js';
import { RecordLoginCommand } from './record-login.handler.js';
import { SESSION_COOKIE, SessionsService } from './sessions.service.js';

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
    @Inject(DATABASE) private readonly database: Database,
  ) {}

  @Public()
  @Post('auth')
  @HttpCode(200)
  async login(
    @Body({ schema: loginRequestSchema }) body: LoginRequest,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<LoginResponse> {
    const credentials = await findCredentialsByEmail(this.database.db, body.email);
    const ok = credentials
      ? await this.hasher.verify(credentials.passwordHash, body.password)
      : await this.hasher.verify(await this.getDummyHash(), body.password).then(() => false);
    if (!credentials || !ok) {
      throw new UnauthorizedException({ message: 'Invalid email or password', code: 'INVALID_CREDENTIALS' });
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
    const { token, expiresAt } = await this.sessions.create(credentials.id, {
      ip: request.ip,
      userAgent: request.headers['user-agent'],
    });
    const { position } = await this.commandBus.execute(new RecordLoginCommand(credentials.id, request.ip));
    await this.waiter.waitFor(position);
    reply.setCookie(SESSION_COOKIE, token, sessionCookieOptions(request, expiresAt));
    const user = await this.queryBus.execute(new GetUserQuery(credentials.id));
    if (!user) throw new UnauthorizedException({ message: 'Invalid email or password', code: 'INVALID_CREDENTIALS' });
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
