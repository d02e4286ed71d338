import { Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { RecordedEvent } from '../../infra/event-store/event-store.port.js';
import {
  EventSubscription,
  type Subscription,
  type SubscriptionContext,
} from '../../infra/subscriptions/subscription.js';
import { PassCommandBatch } from './wallet-account.command.js';
import type { WalletAccountEvent } from './wallet-account.events.js';

type PassCommand = PassCommandBatch['commands'][number];

/**
 * A ticket that appears claims its pass; one that goes gives it back. The pass's stream decides who holds it first
 * (the master); later holders are duplicates and cannot be distributed. A batch of events sends its claims as one
 * batch of commands (every pass stream read at once, every claim appended at once: a sync of thousands of tickets is a
 * few statements, not a few per ticket), appended in the reaction's transaction, with its checkpoint; each command's
 * id derives from the event, so the reaction run twice claims once.
 */
@Injectable()
@EventSubscription()
export class PassClaimsReaction implements Subscription {
  readonly name = 'pass-claims';
  readonly kind = 'reaction' as const;
  readonly startFrom = 'beginning' as const;
  readonly handles = ['TicketDiscovered', 'TicketGone'] as const;
  // A sync of thousands of passes is claimed in many short transactions, not a few long ones that would hold the
  // feed's readers back meanwhile (the feed shows nothing past the oldest open transaction). Set when each claim was a
  // command of its own (a read and an append per pass); now that a batch is claimed in a few statements, the bound may
  // be raised as far as reads allow (sync-5000-read-p99) for fewer transactions per sync (sync-1000-accounts).
  readonly batchSize = 25;

  constructor(private readonly commandBus: CommandBus) {}

  async apply(events: readonly RecordedEvent[], { store }: SubscriptionContext) {
    const commands: PassCommand[] = [];
    for (const recorded of events) {
      const event = { type: recorded.type, data: recorded.data } as WalletAccountEvent;
      const meta = { actorId: 'pass-claims', commandId: `pass:${recorded.id}` };
      if (event.type === 'TicketDiscovered') {
        const { dedupeKey, ticketId, accountId, userId, at } = event.data;
        commands.push({
          command: { type: 'ClaimPass', data: { dedupeKey, ticketId, accountId, userId, now: at } },
          meta,
        });
      } else if (event.type === 'TicketGone') {
        const { dedupeKey, ticketId, at } = event.data;
        commands.push({ command: { type: 'ReleasePass', data: { dedupeKey, ticketId, now: at } }, meta });
      }
    }
    if (commands.length > 0) await this.commandBus.execute(new PassCommandBatch(commands, store));
  }
}
