import { Inject, Injectable } from '@nestjs/common';
import { and, eq, lte } from 'drizzle-orm';
import { sessions } from './identity.schema.js';
import type { RecordedEvent } from '../../infra/event-store/event-store.port.js';
import { REALTIME_PUBLISHER, type RealtimePublisher } from '../../infra/realtime/realtime.publisher.js';
import {
  EventSubscription,
  type Subscription,
  type SubscriptionContext,
} from '../../infra/subscriptions/subscription.js';
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

  constructor(@Inject(REALTIME_PUBLISHER) private readonly publisher: RealtimePublisher) {}

  async apply(events: readonly RecordedEvent[], { tx, afterCommit }: SubscriptionContext) {
    // A session is ended by the events after it began only: a reaction that runs late (its worker was down) must not
    // end the sessions of a sign-in made after the new password or after an unban.
    const ended = new Map<string, { reason: string; at: Date }>();
    for (const recorded of events) {
      const event = { type: recorded.type, data: recorded.data } as UserEvent;
      if (event.type === 'UserBanned') ended.set(event.data.userId, { reason: 'banned', at: new Date(event.data.at) });
      if (event.type === 'PasswordChanged') {
        ended.set(event.data.userId, { reason: 'password-changed', at: new Date(event.data.at) });
      }
    }
    // Sockets are told only where this ended sessions: where another call ended them first (the admin's ban), it
    // told them.
    const told: Array<[string, string]> = [];
    for (const [userId, { reason, at }] of ended) {
      const gone = await tx
        .delete(sessions)
        .where(and(eq(sessions.userId, userId), lte(sessions.createdAt, at)))
        .returning({ tokenHash: sessions.tokenHash });
      if (gone.length > 0) told.push([userId, reason]);
    }
    if (told.length === 0) return;
    afterCommit(() => {
      for (const [userId, reason] of told) this.publisher.disconnectUser(userId, reason);
    });
  }
}
