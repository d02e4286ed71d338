import { Injectable } from '@nestjs/common';
import type { RecordedEvent } from '../../infra/event-store/event-store.port.js';
import {
  EventSubscription,
  type Subscription,
  type SubscriptionContext,
} from '../../infra/subscriptions/subscription.js';
import { handleCommand } from '../../shared/event-sourcing/aggregate-handler.js';
import { passDecider } from './wallet-account.decider.js';
import { passStream, type WalletAccountEvent } from './wallet-account.events.js';

/**
 * A ticket that appears claims its pass; one that goes gives it back. The pass's stream decides who holds it first
 * (the master); later holders are duplicates and cannot be distributed. The claims are appended in the reaction's
 * transaction, with its checkpoint; each command's id also derives from the event, so the reaction run twice claims
 * once.
 */
@Injectable()
@EventSubscription()
export class PassClaimsReaction implements Subscription {
  readonly name = 'pass-claims';
  readonly kind = 'reaction' as const;
  readonly startFrom = 'beginning' as const;
  readonly handles = ['TicketDiscovered', 'TicketGone'] as const;

  async apply(events: readonly RecordedEvent[], { store }: SubscriptionContext) {
    for (const recorded of events) {
      const event = { type: recorded.type, data: recorded.data } as WalletAccountEvent;
      const options = { metadata: { actorId: 'pass-claims' }, commandId: `pass:${recorded.id}`, maxAttempts: 50 };
      if (event.type === 'TicketDiscovered') {
        const { dedupeKey, ticketId, accountId, userId, at } = event.data;
        await handleCommand(
          store,
          passDecider,
          passStream(dedupeKey),
          { type: 'ClaimPass', data: { dedupeKey, ticketId, accountId, userId, now: at } },
          options,
        );
      } else if (event.type === 'TicketGone') {
        const { dedupeKey, ticketId, at } = event.data;
        await handleCommand(
          store,
          passDecider,
          passStream(dedupeKey),
          { type: 'ReleasePass', data: { dedupeKey, ticketId, now: at } },
          options,
        );
      }
    }
  }
}
