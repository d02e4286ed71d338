import { Injectable } from '@nestjs/common';
import { fastifyCookie } from '@fastify/cookie';
import type { SocketAuthenticator, SocketIdentity } from '../../infra/realtime/socket-authenticator.port.js';
import { SESSION_COOKIE, SessionsService } from './sessions.service.js';
import { UserAccounts } from './user-accounts.service.js';

/** Sockets are admitted by the session cookie, as HTTP calls are: a live session of a user who is not banned. */
@Injectable()
export class SessionSocketAuthenticator implements SocketAuthenticator {
  constructor(
    private readonly sessions: SessionsService,
    private readonly accounts: UserAccounts,
  ) {}

  async authenticate(cookieHeader: string | undefined): Promise<SocketIdentity | null> {
    if (!cookieHeader) return null;
    const token = fastifyCookie.parse(cookieHeader)[SESSION_COOKIE];
    const signedIn = await this.accounts.signedIn(token);
    if (!signedIn) return null;
    const { user, tokenHash } = signedIn;
    if (user.is_banned) return null;
    return { userId: user.id, isAdmin: user.is_admin, sessionId: tokenHash };
  }

  liveSessions(sessionIds: readonly string[]): Promise<Set<string>> {
    return this.sessions.liveSessions(sessionIds);
  }
}
