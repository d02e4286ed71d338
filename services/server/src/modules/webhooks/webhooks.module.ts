import { Module } from '@nestjs/common';
import { provideSubscription } from '../../infra/subscriptions/subscription.js';
import { DeliverWebhooksJob, PurgeWebhookDeliveriesJob, SweepWebhooksJob } from './deliver-webhooks.job.js';
import { webhookEndpointsProjection } from './read-models/webhook-endpoints.projection.js';
import { WebhookDeliveries } from './webhook-deliveries.service.js';
import { WebhookFanoutReaction } from './webhook-fanout.reaction.js';
import { WebhookMailReaction } from './webhook-mail.reaction.js';
import { WebhookSender } from './webhook-sender.js';
import { WebhookTicketBatches } from './webhook-ticket-batches.js';
import { WebhooksCommandHandler } from './webhooks.command.js';
import { WebhooksController } from './webhooks.controller.js';

/**
 * Webhooks: a user's endpoints (made, changed, disabled and deleted on their stream of endpoints; listed from the
 * `webhook_endpoints` read model); the fan-out reaction that turns events of links, tickets and credits into
 * deliveries; the jobs that deliver them, signed, in order per link, retried for three days; the e-mail when Seatlink
 * disables an endpoint that keeps failing.
 */
@Module({
  controllers: [WebhooksController],
  providers: [
    WebhooksCommandHandler,
    WebhookSender,
    WebhookDeliveries,
    WebhookTicketBatches,
    DeliverWebhooksJob,
    SweepWebhooksJob,
    PurgeWebhookDeliveriesJob,
    WebhookFanoutReaction,
    WebhookMailReaction,
    provideSubscription(webhookEndpointsProjection),
  ],
})
export class WebhooksModule {}
