import { Inject, Injectable } from '@nestjs/common';
import { QueueName } from '@seatlink/contracts';
import { APP_CONFIG, type AppConfig } from '../../infra/config/config.js';
import { type Job, QueueJob } from '../../infra/queue/jobs.module.js';
import { DELIVER_WEBHOOKS_JOB, WebhookDeliveries } from './webhook-deliveries.service.js';
import { WebhookTicketBatches } from './webhook-ticket-batches.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Delivers one endpoint's due deliveries of one order key (a link, a ticket, a balance), in order. */
@Injectable()
@QueueJob()
export class DeliverWebhooksJob implements Job<{ endpointId: string; orderKey: string }> {
  readonly queue = QueueName.Webhooks;
  readonly name = DELIVER_WEBHOOKS_JOB;
  readonly concurrency: number;

  constructor(
    private readonly deliveries: WebhookDeliveries,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.concurrency = config.WEBHOOK_CONCURRENCY;
  }

  async run(data: { endpointId: string; orderKey: string }): Promise<void> {
    // A job from elsewhere (an older release, a hand-made one) that says nothing usable is dropped.
    if (!data || typeof data.orderKey !== 'string' || !UUID.test(String(data.endpointId))) return;
    await this.deliveries.deliver(data.endpointId, data.orderKey);
  }
}

/**
 * Every WEBHOOK_SWEEP_MS: sends the `tickets.synced` changes that waited WEBHOOK_BATCH_WAIT_MS for a sync's end that
 * never came, then queues again the deliveries that are due and not being tried (the queue lost its jobs, a worker
 * died mid-try, an endpoint was enabled again). On the maintenance queue: endpoints that keep every delivery worker
 * waiting do not hold it back.
 */
@Injectable()
@QueueJob()
export class SweepWebhooksJob implements Job {
  readonly queue = QueueName.Maintenance;
  readonly name = 'sweep-webhooks';
  readonly every: { ms: number };

  constructor(
    private readonly deliveries: WebhookDeliveries,
    private readonly ticketBatches: WebhookTicketBatches,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.every = { ms: config.WEBHOOK_SWEEP_MS };
  }

  async run(): Promise<void> {
    await this.ticketBatches.sendOverdue();
    await this.deliveries.sweep();
  }
}

/** Every hour: drops delivered and given-up deliveries older than 30 days from the log, and the changes they told. */
@Injectable()
@QueueJob()
export class PurgeWebhookDeliveriesJob implements Job {
  readonly queue = QueueName.Maintenance;
  readonly name = 'purge-webhook-deliveries';
  readonly every = { ms: 3600 * 1000 };

  constructor(
    private readonly deliveries: WebhookDeliveries,
    private readonly ticketBatches: WebhookTicketBatches,
  ) {}

  async run(): Promise<void> {
    await this.deliveries.purge();
    await this.ticketBatches.purge();
  }
}
