import { Injectable } from '@nestjs/common';
import type { LoginResponse } from '@seatlink/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_COOKIE } from '../../infra/http/session-cookie.js';
import { ReadModelWaiter } from '../../infra/subscriptions/read-model-waiter.js';
import { ThrottleService } from '../../infra/throttle/throttle.service.js';
import { signInAccount } from '../../infra/throttle/throttled.guard.js';
import { sessionCookieOptions } from './session-cookie-options.js';
import { SessionsService } from './sessions.service.js';
import type { UserState } from './user.decider.js';
import type { UserEvent } from './user.events.js';
import { toUser, UserAccounts } from './user-accounts.service.js';

/** How long a sign-in waits at most for the users read model to show it. */
const LOGIN_READ_MODEL_WAIT_MS = 300;

/**
 * The end of every sign-in (a password, an e-mailed link, a second factor), once the user's stream recorded it
 * (UserLoggedIn): a session, its cookie, the (account, IP) remembered as known, and the user as the answer, with
 * this sign-in in it whether or not the read model shows it yet.
 */
@Injectable()
export class SignIns {
  constructor(
    private readonly sessions: SessionsService,
    private readonly accounts: UserAccounts,
    private readonly waiter: ReadModelWaiter,
    private readonly throttle: ThrottleService,
  ) {}

  async complete(
    request: FastifyRequest,
    reply: FastifyReply,
    state: UserState,
    recorded: { position: string | null; events: ReadonlyArray<UserEvent> },
  ): Promise<LoginResponse> {
    const userId = state.userId!;
    const { token, expiresAt } = await this.sessions.create(userId, {
      ip: request.ip,
      userAgent: request.headers['user-agent'],
    });
    // The owner proved it is them from this address: their password signs in here again without a second proof.
    await this.throttle.rememberSignIn(signInAccount({ email: state.email }), request.ip);
    // A short courtesy wait, so that the next GET /v1/me shows this sign-in; never long (sign-in must stay quick
    // when the read models lag): the answer below carries it either way.
    await this.waiter.pending(recorded, LOGIN_READ_MODEL_WAIT_MS);
    reply.setCookie(SESSION_COOKIE, token, sessionCookieOptions(request, expiresAt));
    const at = recorded.events.findLast((e) => e.type === 'UserLoggedIn')?.data.at ?? new Date().toISOString();
    const known = (await this.accounts.getUser(userId)) ?? toUser(state);
    return {
      user: { ...known, email_verified: true, is_banned: false, last_logged_in_at: new Date(at).toISOString() },
    };
  }
}
