import { Inject, Injectable } from '@nestjs/common';
import { eq } from 'drizzle-orm';
import { v5 as uuidv5 } from 'uuid';
import { APP_CONFIG, type AppConfig } from '../../infra/config/config.js';
import type { RecordedEvent } from '../../infra/event-store/event-store.port.js';
import { queueMail } from '../../infra/mail/mail-outbox.js';
import { MailOutbox } from '../../infra/mail/mail.module.js';
import { simpleMessage } from '../../infra/mail/simple-message.js';
import {
  EventSubscription,
  type Subscription,
  type SubscriptionContext,
} from '../../infra/subscriptions/subscription.js';
import { findUserById } from '../identity/index.js';
import type { WebhookEndpointDisabled } from './webhooks.events.js';
import { webhookEndpoints } from './webhooks.schema.js';

const MAIL_ID_NAMESPACE = '4e8a2c6f-0b3d-4f1a-9c5e-7d2b4f6a8c03';

/**
 * Tells an endpoint's owner by e-mail when Seatlink disabled it after it failed for too long (not when they turned it
 * off themselves). Queued in the outbox in the transaction of this reaction's checkpoint, keyed by the event.
 */
@Injectable()
@EventSubscription()
export class WebhookMailReaction implements Subscription {
  readonly name = 'webhook-mail';
  readonly kind = 'reaction' as const;
  readonly handles = ['WebhookEndpointDisabled'] as const;

  constructor(
    private readonly outbox: MailOutbox,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async apply(events: readonly RecordedEvent[], { tx, afterCommit }: SubscriptionContext) {
    let queued = false;
    for (const recorded of events) {
      const { data } = recorded as unknown as WebhookEndpointDisabled;
      if (data.by !== 'seatlink') continue;
      // Inside this transaction: what it reads is as of the events it applies.
      const user = await findUserById(tx, data.userId);
      if (!user || user.is_banned) continue;
      const [endpoint] = await tx
        .select({ url: webhookEndpoints.url })
        .from(webhookEndpoints)
        .where(eq(webhookEndpoints.endpointId, data.endpointId));
      const link = `${this.config.DASHBOARD_URL.replace(/\/$/, '')}/dashboard/settings`;
      const message = simpleMessage(
        user.email,
        'A webhook endpoint of yours was turned off',
        `Hello ${user.first_name},`,
        [
          `Seatlink could not deliver events to your webhook endpoint${endpoint ? ` ${endpoint.url}` : ''} for too long.`,
          data.reason ?? '',
          'Fix the endpoint, then turn it on again in Settings: what waited is delivered then.',
        ].filter(Boolean),
        'Open your webhook settings',
        link,
      );
      await queueMail(tx, uuidv5(recorded.id, MAIL_ID_NAMESPACE), message);
      queued = true;
    }
    if (queued) afterCommit(() => this.outbox.nudge());
  }
}
