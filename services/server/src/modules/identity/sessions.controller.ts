import { createHash } from 'node:crypto';
import { Controller, Delete, Get, NotFoundException, Param } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import {
  type EndSessionsResponse,
  endSessionsResponseSchema,
  SESSION_MESSAGES,
  sessionIdParamSchema,
  type SessionsResponse,
  sessionsResponseSchema,
  type SignedInSession,
  type User,
} from '@seatlink/contracts';
import { ClientIp, CurrentSession, CurrentUser } from '../../infra/http/auth.decorators.js';
import { CommandId } from '../../infra/http/command-id.js';
import { Answers } from '../../infra/http/openapi.decorators.js';
import { SessionPolicy } from './session-policy.js';
import { describeUserAgent } from './user-agent.js';
import { SessionsService } from './sessions.service.js';
import { UserCommandMessage } from './user.command.js';
import { clock } from '../../shared/clock.js';

/** A session's handle for its owner: derived from its token's hash, which it does not reveal. */
const handleOf = (tokenHash: string) => createHash('sha256').update(`session:${tokenHash}`).digest('hex').slice(0, 32);

/**
 * The user's signed-in sessions: where and when each signed in and was last used, this one marked; sign one out, or
 * every other. A session signed out closes its sockets at once, on every API process; its page hears 'session.ended'.
 */
@Controller('v1/me/sessions')
export class SessionsController {
  constructor(
    private readonly sessions: SessionsService,
    private readonly policy: SessionPolicy,
    private readonly commandBus: CommandBus,
  ) {}

  @Get()
  @Answers(sessionsResponseSchema)
  async list(@CurrentUser() user: User, @CurrentSession() current: string): Promise<SessionsResponse> {
    const live = await this.sessions.liveFor(user.id);
    const sessions: SignedInSession[] = live.map((s) => ({
      id: handleOf(s.tokenHash),
      current: s.tokenHash === current,
      created_at: s.createdAt.toISOString(),
      last_seen_at: s.lastSeenAt.toISOString(),
      ip: s.ip,
      ...describeUserAgent(s.userAgent),
    }));
    return { sessions: [...sessions.filter((s) => s.current), ...sessions.filter((s) => !s.current)] };
  }

  /** Signs every other session out (this one stays). */
  @Delete()
  @Answers(endSessionsResponseSchema)
  async endOthers(
    @CurrentUser() user: User,
    @CurrentSession() current: string,
    @ClientIp() ip: string,
    @CommandId() commandId: string,
  ): Promise<EndSessionsResponse> {
    const others = (await this.sessions.liveFor(user.id)).map((s) => s.tokenHash).filter((h) => h !== current);
    const ended = await this.policy.endSessionsOf(user.id, others);
    await this.record(user.id, ended, ip, commandId);
    return { message: SESSION_MESSAGES.endedOthers(ended), ended };
  }

  /** Signs one session out (this one too: then it is a logout). */
  @Delete(':id')
  @Answers(endSessionsResponseSchema)
  async end(
    @Param('id', { schema: sessionIdParamSchema }) id: string,
    @CurrentUser() user: User,
    @ClientIp() ip: string,
    @CommandId() commandId: string,
  ): Promise<EndSessionsResponse> {
    const session = (await this.sessions.liveFor(user.id)).find((s) => handleOf(s.tokenHash) === id);
    const ended = session ? await this.policy.endSessionsOf(user.id, [session.tokenHash]) : 0;
    if (ended === 0) throw new NotFoundException({ message: SESSION_MESSAGES.notFound, code: 'SESSION_NOT_FOUND' });
    await this.record(user.id, ended, ip, commandId);
    return { message: SESSION_MESSAGES.ended, ended };
  }

  /** The user's stream keeps that they signed sessions out (their security history). */
  private async record(userId: string, count: number, ip: string, commandId: string) {
    await this.commandBus.execute(
      new UserCommandMessage(
        { type: 'RecordSessionsSignedOut', data: { userId, count, now: clock.now().toISOString() } },
        { actorId: userId, ip, commandId },
      ),
    );
  }
}
