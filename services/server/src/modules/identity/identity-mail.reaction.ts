import { Inject, Injectable } from '@nestjs/common';
import { inArray } from 'drizzle-orm';
import { v5 as uuidv5 } from 'uuid';
import { APP_CONFIG, type AppConfig } from '../../infra/config/config.js';
import { mailOutbox } from '../../infra/db/schema.js';
import type { EventStore, RecordedEvent } from '../../infra/event-store/event-store.port.js';
import { fold } from '../../shared/event-sourcing/decider.js';
import { queueMail } from '../../infra/mail/mail-outbox.js';
import { MailOutbox } from '../../infra/mail/mail.module.js';
import type { MailMessage } from '../../infra/mail/mail.port.js';
import {
  EventSubscription,
  type Subscription,
  type SubscriptionContext,
} from '../../infra/subscriptions/subscription.js';
import { AuthTokensService } from './auth-tokens.service.js';
import {
  SECURITY_CHANGES,
  type SecurityChange,
  securityChangeEmail,
  duplicateRegistrationEmail,
  passwordResetEmail,
  signInLinkEmail,
  verificationEmail,
} from './identity.emails.js';
import { formatMailTime } from '../../infra/mail/mail-time.js';
import { findUserById } from './read-models/users/users.queries.js';
import { toUser } from './user-accounts.service.js';
import { userDecider } from './user.decider.js';
import { userStream, type UserEvent } from './user.events.js';
import { clock } from '../../shared/clock.js';

const SECURITY_CHANGE_EVENTS = Object.keys(SECURITY_CHANGES) as SecurityChange[];
const isSecurityChange = (type: string): type is SecurityChange => (SECURITY_CHANGE_EVENTS as string[]).includes(type);

const MAIL_ID_NAMESPACE = '5a3c8f1e-2b7d-4c19-9e0a-6d4f2c8b1a73';

/**
 * E-mails of identity: a verification link when a user registers unverified or asks again, a reset link when a reset
 * is asked for, a one-time sign-in link when a sign-in needs a second proof, and a word to the owner of an address
 * someone tried to register with. Each message is queued in the outbox in the transaction that moves this reaction's checkpoint, keyed by
 * the event, with its single-use token: a crash loses nothing and queues nothing twice.
 */
@Injectable()
@EventSubscription()
export class IdentityMailReaction implements Subscription {
  readonly name = 'identity-mail';
  readonly kind = 'reaction' as const;
  readonly handles = [
    'UserRegistered',
    'VerificationEmailRequested',
    'PasswordResetRequested',
    'SignInLinkRequested',
    'DuplicateRegistrationAttempted',
    ...SECURITY_CHANGE_EVENTS,
  ] as const;

  constructor(
    private readonly tokens: AuthTokensService,
    private readonly outbox: MailOutbox,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async apply(events: readonly RecordedEvent[], { tx, afterCommit, store }: SubscriptionContext) {
    const now = clock.now();
    const ids = events.map((e) => uuidv5(e.id, MAIL_ID_NAMESPACE));
    // An event handled before (a retried or replayed batch) keeps its message and token: a new token would void the
    // link already sent.
    const queued = new Set(
      (await tx.select({ id: mailOutbox.id }).from(mailOutbox).where(inArray(mailOutbox.id, ids))).map((r) => r.id),
    );
    for (const [i, recorded] of events.entries()) {
      if (queued.has(ids[i]!)) continue;
      const event = { type: recorded.type, data: recorded.data } as UserEvent;
      let message: MailMessage | null = null;
      switch (event.type) {
        case 'UserRegistered': {
          const d = event.data;
          if (d.emailVerified) break;
          const token = await this.tokens.issue(d.userId, 'verify_email', now, tx);
          message = verificationEmail(d.email, d.firstName, this.config.DASHBOARD_URL, token);
          break;
        }
        case 'VerificationEmailRequested': {
          const d = event.data;
          const token = await this.tokens.issue(d.userId, 'verify_email', now, tx);
          message = verificationEmail(d.email, d.firstName, this.config.DASHBOARD_URL, token);
          break;
        }
        case 'PasswordResetRequested': {
          const d = event.data;
          const token = await this.tokens.issue(d.userId, 'reset_password', now, tx);
          message = passwordResetEmail(d.email, d.firstName, this.config.DASHBOARD_URL, token);
          break;
        }
        case 'SignInLinkRequested': {
          const d = event.data;
          // Dated when it was asked for, not when it is mailed: a password changed in between voids it, however late
          // the mail goes.
          const token = await this.tokens.issue(d.userId, 'sign_in', new Date(d.at), tx);
          message = signInLinkEmail(d.email, d.firstName, this.config.DASHBOARD_URL, token);
          break;
        }
        case 'DuplicateRegistrationAttempted': {
          const d = event.data;
          message = duplicateRegistrationEmail(d.email, d.firstName, this.config.DASHBOARD_URL);
          break;
        }
        default: {
          // A security change: its owner hears of it (an admin's reset of someone else's password included).
          if (!isSecurityChange(event.type)) break;
          // Read in this transaction (the read model, else the user's stream through the store bound to it): on the
          // embedded database (one connection) a read from outside would wait for this transaction to end, forever.
          const userId = (event.data as { userId: string }).userId;
          const user = (await findUserById(tx, userId)) ?? (await userFromStream(store, userId));
          if (!user) break;
          const detail =
            event.type === 'SignInFromNewDevice'
              ? `${event.data.device}, from ${event.data.ip}, on ${formatMailTime(event.data.at)} (UK time).`
              : undefined;
          message = securityChangeEmail(user.email, user.first_name, this.config.DASHBOARD_URL, event.type, detail);
          break;
        }
      }
      if (message) await queueMail(tx, ids[i]!, message, now);
    }
    afterCommit(() => this.outbox.nudge());
  }
}

/** The user as their own stream tells it (read through the reaction's transaction); null when there is none. */
async function userFromStream(store: EventStore, userId: string) {
  const { events } = await store.readStream(userStream(userId));
  const state = fold(
    userDecider,
    events.map((e) => ({ type: e.type, data: e.data }) as UserEvent),
  );
  return state.exists ? toUser(state) : null;
}
