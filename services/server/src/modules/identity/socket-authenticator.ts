import { Injectable } from '@nestjs/common';
import { fastifyCookie } from '@fastify/cookie';
import { SESSION_COOKIE } from '../../infra/http/session-cookie.js';
import type { SocketAuthenticator, SocketIdentity } from '../../infra/realtime/socket-authenticator.port.js';
import { SessionPolicy } from './session-policy.js';

/** Sockets are admitted by the session cookie, as HTTP calls are: the session policy decides both. */
@Injectable()
export class SessionSocketAuthenticator implements SocketAuthenticator {
  constructor(private readonly policy: SessionPolicy) {}

  async authenticate(cookieHeader: string | undefined): Promise<SocketIdentity | null> {
    if (!cookieHeader) return null;
    const admitted = await this.policy.authenticate(fastifyCookie.parse(cookieHeader)[SESSION_COOKIE]);
    if (!admitted.ok) return null;
    // The admins' room only for an admin the admin pages would admit (a second factor, where one is required).
    const isAdmin = await this.policy.adminAllowed(admitted.user);
    return { userId: admitted.user.id, isAdmin, sessionId: admitted.sessionId };
  }

  liveSessions(sessionIds: readonly string[]): Promise<Set<string>> {
    return this.policy.liveSessions(sessionIds);
  }
}
