import { Inject, Injectable, Logger } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { and, count, eq, ne } from 'drizzle-orm';
import type { LoginResponse } from '@seatlink/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DATABASE } from '../../infra/db/database.module.js';
import { safeErrorMessage } from '../../infra/db/db-errors.js';
import type { Database } from '../../infra/db/database.js';
import { SESSION_COOKIE } from '../../infra/http/session-cookie.js';
import { ReadModelWaiter } from '../../infra/subscriptions/read-model-waiter.js';
import { ThrottleService } from '../../infra/throttle/throttle.service.js';
import { signInAccount } from '../../infra/throttle/throttled.guard.js';
import { sessionCookieOptions } from './session-cookie-options.js';
import { userDevices } from './identity.schema.js';
import { SessionsService } from './sessions.service.js';
import { UserCommandMessage } from './user.command.js';
import { deviceOf } from './user-agent.js';
import type { UserState } from './user.decider.js';
import type { UserEvent } from './user.events.js';
import { toUser, UserAccounts } from './user-accounts.service.js';
import { clock } from '../../shared/clock.js';

/** How long a sign-in waits at most for the users read model to show it. */
const LOGIN_READ_MODEL_WAIT_MS = 300;

/**
 * The end of every sign-in (a password, an e-mailed link, a second factor), once the user's stream recorded it
 * (UserLoggedIn): a session, its cookie, the (account, IP) remembered as known, and the user as the answer, with
 * this sign-in in it whether or not the read model shows it yet.
 */
@Injectable()
export class SignIns {
  private readonly logger = new Logger('SignIns');
  constructor(
    private readonly sessions: SessionsService,
    private readonly accounts: UserAccounts,
    private readonly waiter: ReadModelWaiter,
    private readonly throttle: ThrottleService,
    private readonly commandBus: CommandBus,
    @Inject(DATABASE) private readonly database: Database,
  ) {}

  /**
   * Remembers the device of a sign-in; a device the account had not signed in from is recorded on the user's stream
   * (SignInFromNewDevice, which e-mails them) — except on the very first sign-in, where every device is new.
   */
  private async rememberDevice(userId: string, request: FastifyRequest, events: ReadonlyArray<UserEvent>) {
    const { name, key } = deviceOf(request.headers['user-agent']);
    const at = events.findLast((e) => e.type === 'UserLoggedIn')?.data.at ?? clock.now().toISOString();
    const added = await this.database.db
      .insert(userDevices)
      .values({ userId, deviceKey: key, firstSeenAt: new Date(at) })
      .onConflictDoNothing()
      .returning({ key: userDevices.deviceKey });
    if (added.length === 0) return;
    const [others] = await this.database.db
      .select({ n: count() })
      .from(userDevices)
      .where(and(eq(userDevices.userId, userId), ne(userDevices.deviceKey, key)));
    if (Number(others?.n ?? 0) === 0) return;
    await this.commandBus.execute(
      new UserCommandMessage(
        { type: 'RecordNewDevice', data: { userId, device: name, ip: request.ip, now: at } },
        { actorId: userId, ip: request.ip },
      ),
    );
  }

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
    // A notice, not a condition: a sign-in never fails for it.
    await this.rememberDevice(userId, request, recorded.events).catch((err: unknown) =>
      this.logger.warn(`the device of a sign-in of ${userId} was not remembered: ${safeErrorMessage(err)}`),
    );
    // The owner proved it is them from this address: their password signs in here again without a second proof.
    await this.throttle.rememberSignIn(signInAccount({ email: state.email }), request.ip);
    // A short courtesy wait, so that the next GET /v1/me shows this sign-in; never long (sign-in must stay quick
    // when the read models lag): the answer below carries it either way.
    await this.waiter.pending(recorded, LOGIN_READ_MODEL_WAIT_MS);
    reply.setCookie(SESSION_COOKIE, token, sessionCookieOptions(request, expiresAt));
    const at = recorded.events.findLast((e) => e.type === 'UserLoggedIn')?.data.at ?? clock.now().toISOString();
    const known = (await this.accounts.getUser(userId)) ?? toUser(state);
    return {
      user: { ...known, email_verified: true, is_banned: false, last_logged_in_at: new Date(at).toISOString() },
    };
  }
}
