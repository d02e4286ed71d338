import { Injectable } from '@nestjs/common';
import type { RecordedEvent } from '../../infra/event-store/event-store.port.js';
import {
  EventSubscription,
  type Subscription,
  type SubscriptionContext,
} from '../../infra/subscriptions/subscription.js';
import { SessionPolicy, type SessionsEndReason } from './session-policy.js';
import type { UserEvent } from './user.events.js';

/**
 * Ends every session of a user who is banned or whose password was reset, and closes their open sockets (on every API
 * process). The sessions go in the transaction that moves the checkpoint; the sockets close after it commits.
 */
@Injectable()
@EventSubscription()
export class SessionsReaction implements Subscription {
  readonly name = 'sessions';
  readonly kind = 'reaction' as const;
  readonly handles = ['UserBanned', 'PasswordChanged'] as const;

  constructor(private readonly policy: SessionPolicy) {}

  async apply(events: readonly RecordedEvent[], context: SubscriptionContext) {
    // A session is ended by the events after it began only: a reaction that runs late (its worker was down) must not
    // end the sessions of a sign-in made after the new password or after an unban.
    const ended = new Map<string, { reason: SessionsEndReason; at: Date }>();
    for (const recorded of events) {
      const event = { type: recorded.type, data: recorded.data } as UserEvent;
      if (event.type === 'UserBanned') ended.set(event.data.userId, { reason: 'banned', at: new Date(event.data.at) });
      if (event.type === 'PasswordChanged') {
        ended.set(event.data.userId, { reason: 'password-changed', at: new Date(event.data.at) });
      }
    }
    for (const [userId, { reason, at }] of ended) {
      await this.policy.endSessions(userId, reason, { begunBy: at, within: context });
    }
  }
}
