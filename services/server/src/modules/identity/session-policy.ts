import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import type { User } from '@seatlink/contracts';
import { ModuleRef } from '@nestjs/core';
import { APP_CONFIG, type AppConfig } from '../../infra/config/config.js';
import type { Admission, SessionGate } from '../../infra/http/session-gate.port.js';
import { REALTIME_PUBLISHER, type RealtimePublisher } from '../../infra/realtime/realtime.publisher.js';
import type { SubscriptionContext } from '../../infra/subscriptions/subscription.js';
import { SessionsService } from './sessions.service.js';
import { UserAccounts } from './user-accounts.service.js';
import { hasSecondFactor } from './user.decider.js';

/** Why a user's sessions end, as their sockets are told ('session.ended'). */
export type SessionsEndReason = 'banned' | 'password-changed';

/**
 * The one place that decides who a session token signs in, and that ends sessions: the guard of every route, the
 * socket handshake, the queue board, logout, a ban and a password reset all ask it.
 *
 * Ending sessions tells their sockets after the sessions are gone (a page told asks who is signed in, and must hear
 * "nobody"), and only where this call ended some: of two calls ending the same sessions at once (the admin's ban and
 * the sessions reaction, maybe in another process) one deletes them and tells, so a socket hears 'session.ended' once.
 */
@Injectable()
export class SessionPolicy implements SessionGate, OnModuleInit {
  private publisher: RealtimePublisher | null = null;

  constructor(
    private readonly sessions: SessionsService,
    private readonly accounts: UserAccounts,
    private readonly moduleRef: ModuleRef,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit() {
    if (this.config.ADMIN_MFA === 'optional') {
      new Logger('Identity').warn('ADMIN_MFA=optional: admins use the admin pages without a second factor');
    }
  }

  async authenticate(token: string | undefined, need: 'user' | 'admin' = 'user'): Promise<Admission> {
    if (!token) return { ok: false, refused: 'none' };
    const session = await this.sessions.resolve(token);
    // The read model's user, which the session's own read brings along, or the user's stream while it lags.
    const user = session && (session.user ?? (await this.accounts.getUser(session.userId)));
    if (!session || !user) return { ok: false, refused: 'expired' };
    if (user.is_banned) {
      // A ban ends the user's sessions (the admin's call, the sessions reaction); one read here before they got to it
      // ends now.
      await this.endSessions(user.id, 'banned');
      return { ok: false, refused: 'banned' };
    }
    if (need === 'admin' && !user.is_admin) return { ok: false, refused: 'not-admin' };
    if (need === 'admin' && !(await this.adminAllowed(user))) return { ok: false, refused: 'mfa-enrolment' };
    return { ok: true, user, sessionId: session.tokenHash };
  }

  /**
   * Whether the user may act as an admin now: an admin, with a second factor where ADMIN_MFA=required (their stream
   * says whether they have one). Admin routes, the admins' socket room and the admin views of user routes ask it.
   */
  async adminAllowed(user: User): Promise<boolean> {
    if (!user.is_admin) return false;
    return this.config.ADMIN_MFA !== 'required' || hasSecondFactor(await this.accounts.state(user.id));
  }

  /**
   * Ends every session of the user and closes their sockets; answers whether there were any to end. A reaction
   * passes its transaction (`within`: the sessions go with its checkpoint, the sockets are told once it commits) and
   * the event's time (`begunBy`: a sign-in made after the ban or the new password stays).
   */
  async endSessions(
    userId: string,
    reason: SessionsEndReason,
    options: { begunBy?: Date; within?: Pick<SubscriptionContext, 'tx' | 'afterCommit'> } = {},
  ): Promise<boolean> {
    const ended = await this.sessions.endAllFor(userId, { begunBy: options.begunBy, db: options.within?.tx });
    if (ended === 0) return false;
    const tell = () => this.realtime.disconnectUser(userId, reason);
    if (options.within) options.within.afterCommit(tell);
    else tell();
    return true;
  }

  /** Ends the session of a token (a logout) and closes that session's sockets, not the user's others. */
  async endSession(token: string | undefined): Promise<void> {
    const ended = await this.sessions.end(token);
    if (ended) this.realtime.disconnectSession(ended, 'logout');
  }

  /**
   * Ends these sessions of the user (the user signing them out from another) and closes their sockets; answers how
   * many this call ended.
   */
  async endSessionsOf(userId: string, sessionIds: readonly string[]): Promise<number> {
    const ended = await this.sessions.endOf(userId, sessionIds);
    for (const id of ended) this.realtime.disconnectSession(id, 'signed-out');
    return ended.length;
  }

  /** Which of these sessions are still live: a socket lives no longer than its session. */
  liveSessions(sessionIds: readonly string[]): Promise<Set<string>> {
    return this.sessions.liveSessions(sessionIds);
  }

  /** Looked up at first use: in an API process the publisher is the socket.io gateway, which asks this policy. */
  private get realtime(): RealtimePublisher {
    return (this.publisher ??= this.moduleRef.get<RealtimePublisher>(REALTIME_PUBLISHER, { strict: false }));
  }
}
