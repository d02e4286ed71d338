import { randomUUID } from 'node:crypto';
import type { LookupFunction } from 'node:net';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { QueueName } from '@seatlink/contracts';
import { and, asc, eq, sql } from 'drizzle-orm';
import { v5 as uuidv5 } from 'uuid';
import { APP_CONFIG, type AppConfig } from '../../infra/config/config.js';
import { DATABASE } from '../../infra/db/database.module.js';
import { type Database, queryRows } from '../../infra/db/database.js';
import { safeErrorMessage } from '../../infra/db/db-errors.js';
import { JOB_QUEUE, type JobQueue } from '../../infra/queue/queue.port.js';
import { TokenCipher } from '../../infra/wallet/token-cipher.js';
import { WebhookSender } from './webhook-sender.js';
import { WebhooksCommandMessage } from './webhooks.command.js';
import { webhookDeliveries, webhookEndpointHealth, webhookRoutes } from './webhooks.schema.js';

export const DELIVER_WEBHOOKS_JOB = 'deliver-webhooks';
/** A job per delivery and try: queuing the same try again (the fan-out, the sweep) is a no-op while it is pending. */
export const deliveryJobId = (deliveryId: string, attempts: number) => `wh-${deliveryId}-${attempts}`;
/** Deliveries asked for by hand (a resend, a test event): each its own order key, tried once. */
export const MANUAL_KEY = 'manual:';

/** Deliveries one job makes in a row before it hands the rest to a new job (so one busy link does not hog a worker). */
const RUN_MAX = 100;
/** The longest wait between two tries. */
const BACKOFF_CAP_MS = 6 * 3600 * 1000;
/** Delivered and given-up deliveries are kept this long in the log. */
const KEPT = '30 days';
const DISABLE_ID_NAMESPACE = '9b4d2f6e-1a3c-4e5b-8d7f-0c2e4a6b8d13';

type Delivery = typeof webhookDeliveries.$inferSelect;
/** One job's run over one order key: the endpoint as read at its start. */
interface Run {
  route: typeof webhookRoutes.$inferSelect;
  /** The endpoint had failed tries since its last success (a success then clears them). */
  failing: boolean;
  secret: string | null;
}
type Step = 'next' | 'done';

/**
 * Delivers webhooks: the deliveries of one endpoint and order key go one after the other, each tried until it is
 * delivered or three days (WEBHOOK_RETRY_FOR_MS) have passed, the waits doubling from WEBHOOK_BACKOFF_MS. A try leases
 * its delivery (no two workers try one at once, whatever the queue runs twice). An endpoint that keeps failing is
 * disabled through its stream (WebhookEndpointDisabled; its owner is e-mailed). Nothing here trusts the queue to keep
 * its jobs: the sweep queues again whatever is due and not being tried.
 */
@Injectable()
export class WebhookDeliveries {
  private readonly logger = new Logger('Webhooks');
  /** Tests resolve names their own way (a name that resolves to a private address). */
  lookup: LookupFunction | undefined;

  constructor(
    @Inject(DATABASE) private readonly database: Database,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
    private readonly sender: WebhookSender,
    private readonly cipher: TokenCipher,
    private readonly commandBus: CommandBus,
  ) {}

  /**
   * Delivers the endpoint's deliveries of this order key that are due, in order. The endpoint is read once a run (a
   * change to it reaches the next run); each delivery costs two statements besides its try: its lease, and its outcome.
   */
  async deliver(endpointId: string, orderKey: string): Promise<void> {
    const [found] = await this.database.db
      .select({ route: webhookRoutes, failures: webhookEndpointHealth.consecutiveFailures })
      .from(webhookRoutes)
      .leftJoin(webhookEndpointHealth, eq(webhookEndpointHealth.endpointId, webhookRoutes.endpointId))
      .where(eq(webhookRoutes.endpointId, endpointId));
    // The fan-out has not read the endpoint yet (a test event sent right after it was added): the sweep comes back.
    if (!found) return;
    const run: Run = { route: found.route, failing: (found.failures ?? 0) > 0, secret: null };
    for (let i = 0; i < RUN_MAX; i++) {
      if ((await this.deliverHead(run, orderKey)) === 'done') return;
    }
    const [head] = await this.head(endpointId, orderKey);
    if (head) await this.enqueue(head, 0);
  }

  /** Queues a new delivery of `payload` to the endpoint at once (a test event, a resend): tried once. */
  async deliverNow(d: { endpointId: string; userId: string; eventId: string; type: string; payload: string }) {
    const id = randomUUID();
    const now = new Date();
    const [row] = await this.database.db
      .insert(webhookDeliveries)
      .values({ ...d, id, orderKey: `${MANUAL_KEY}${id}`, createdAt: now, occurredAt: now, nextAttemptAt: now })
      .returning();
    await this.enqueue(row!, 0).catch((err: unknown) => this.logger.warn(`not queued: ${safeErrorMessage(err)}`));
    return row!;
  }

  /**
   * Queues again every order key whose next delivery is due and not being tried (a queue that lost its jobs, an
   * endpoint enabled again), and drops old finished deliveries from the log; answers how many keys were queued.
   */
  async sweep(endpointId?: string): Promise<number> {
    const heads = await queryRows<{ id: string; endpoint_id: string; order_key: string; attempts: number }>(
      this.database.db,
      sql`select h.id, h.endpoint_id, h.order_key, h.attempts
            from (select distinct on (endpoint_id, order_key) id, endpoint_id, order_key, attempts, next_attempt_at,
                         leased_until
                    from webhook_deliveries
                   where status = 'pending' ${endpointId ? sql`and endpoint_id = ${endpointId}` : sql``}
                   order by endpoint_id, order_key, occurred_at, seq) h
            join webhook_routes r on r.endpoint_id = h.endpoint_id
           where h.next_attempt_at <= now() and (h.leased_until is null or h.leased_until < now())
             and (r.enabled or r.deleted or h.order_key like ${`${MANUAL_KEY}%`})
           limit 1000`,
    );
    for (const head of heads) {
      await this.queue.add(
        QueueName.Webhooks,
        DELIVER_WEBHOOKS_JOB,
        { endpointId: head.endpoint_id, orderKey: head.order_key },
        { jobId: deliveryJobId(head.id, head.attempts) },
      );
    }
    if (!endpointId) {
      await this.database.query(
        `delete from webhook_deliveries where status <> 'pending' and created_at < now() - interval '${KEPT}'`,
      );
    }
    return heads.length;
  }

  private head(endpointId: string, orderKey: string): Promise<Delivery[]> {
    return this.database.db
      .select()
      .from(webhookDeliveries)
      .where(
        and(
          eq(webhookDeliveries.endpointId, endpointId),
          eq(webhookDeliveries.orderKey, orderKey),
          eq(webhookDeliveries.status, 'pending'),
        ),
      )
      .orderBy(asc(webhookDeliveries.occurredAt), asc(webhookDeliveries.seq))
      .limit(1);
  }

  private async deliverHead(run: Run, orderKey: string): Promise<Step> {
    const { route } = run;
    const endpointId = route.endpointId;
    const manual = orderKey.startsWith(MANUAL_KEY);
    if (route.deleted) {
      await this.database.db
        .update(webhookDeliveries)
        .set({ status: 'failed', lastError: 'The endpoint was deleted', nextAttemptAt: null })
        .where(and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.status, 'pending')));
      return 'done';
    }
    // Disabled: what is pending waits until the endpoint is enabled again (a test or resend goes all the same).
    if (!route.enabled && !manual) return 'done';
    // The head of the key, leased if it is due and nobody is trying it.
    const [leased] = await this.database.db
      .update(webhookDeliveries)
      .set({ leasedUntil: sql`now() + ${`${this.config.WEBHOOK_TIMEOUT_MS + 10_000} milliseconds`}::interval` })
      .where(
        and(
          eq(
            webhookDeliveries.id,
            sql`(select id from webhook_deliveries
                  where endpoint_id = ${endpointId} and order_key = ${orderKey} and status = 'pending'
                  order by occurred_at, seq limit 1)`,
          ),
          sql`(${webhookDeliveries.leasedUntil} is null or ${webhookDeliveries.leasedUntil} < now())`,
          sql`${webhookDeliveries.nextAttemptAt} <= now()`,
        ),
      )
      .returning();
    if (!leased) {
      // None left, someone else is trying it, or it is not due: then its try is queued for when it is.
      const [head] = await this.head(endpointId, orderKey);
      const wait = head?.nextAttemptAt ? head.nextAttemptAt.getTime() - Date.now() : 0;
      if (head && wait > 0) await this.enqueue(head, wait);
      return 'done';
    }
    const head = leased;
    try {
      run.secret ??= this.cipher.decrypt(route.secretSealed);
    } catch (err) {
      this.logger.error(`endpoint ${endpointId}: its secret cannot be read: ${safeErrorMessage(err)}`);
      await this.release(head.id);
      return 'done';
    }
    const outcome = await this.sender.send(route.url, head.payload, run.secret, {}, this.lookup);
    const attempts = head.attempts + 1;
    const tried = new Date();
    const result = {
      attempts,
      lastStatus: outcome.status,
      lastLatencyMs: outcome.latencyMs,
      lastError: outcome.error,
      lastAttemptAt: tried,
      leasedUntil: null,
    };
    if (outcome.ok) {
      await this.database.db
        .update(webhookDeliveries)
        .set({ ...result, status: 'delivered', nextAttemptAt: null })
        .where(eq(webhookDeliveries.id, head.id));
      if (!manual && run.failing) {
        await this.database.db
          .update(webhookEndpointHealth)
          .set({ consecutiveFailures: 0, failingSince: null, lastSuccessAt: tried })
          .where(eq(webhookEndpointHealth.endpointId, endpointId));
        run.failing = false;
      }
      return 'next';
    }
    const giveUp = manual || tried.getTime() - head.createdAt.getTime() >= this.config.WEBHOOK_RETRY_FOR_MS;
    const wait = Math.min(BACKOFF_CAP_MS, this.config.WEBHOOK_BACKOFF_MS * 2 ** (attempts - 1));
    const nextAttemptAt = giveUp ? null : new Date(tried.getTime() + wait);
    await this.database.db
      .update(webhookDeliveries)
      .set({ ...result, status: giveUp ? 'failed' : 'pending', nextAttemptAt })
      .where(eq(webhookDeliveries.id, head.id));
    if (!manual) {
      run.failing = true;
      await this.failed(route, tried, outcome.error ?? 'failed');
    }
    if (giveUp) return 'next';
    await this.enqueue({ ...head, attempts }, wait);
    return 'done';
  }

  private async release(id: string) {
    await this.database.db.update(webhookDeliveries).set({ leasedUntil: null }).where(eq(webhookDeliveries.id, id));
  }

  private async enqueue(head: Pick<Delivery, 'id' | 'endpointId' | 'orderKey' | 'attempts'>, delayMs: number) {
    await this.queue.add(
      QueueName.Webhooks,
      DELIVER_WEBHOOKS_JOB,
      { endpointId: head.endpointId, orderKey: head.orderKey },
      { jobId: deliveryJobId(head.id, head.attempts), ...(delayMs > 0 ? { delayMs } : {}) },
    );
  }

  /** Counts a failed try against the endpoint; past the limits, Seatlink disables it. */
  private async failed(route: typeof webhookRoutes.$inferSelect, at: Date, error: string) {
    const [health] = await this.database.db
      .insert(webhookEndpointHealth)
      .values({ endpointId: route.endpointId, consecutiveFailures: 1, failingSince: at })
      .onConflictDoUpdate({
        target: webhookEndpointHealth.endpointId,
        set: {
          consecutiveFailures: sql`${webhookEndpointHealth.consecutiveFailures} + 1`,
          failingSince: sql`coalesce(${webhookEndpointHealth.failingSince}, excluded.failing_since)`,
        },
      })
      .returning();
    const since = health!.failingSince ?? at;
    if (health!.consecutiveFailures < this.config.WEBHOOK_DISABLE_AFTER_FAILURES) return;
    if (at.getTime() - since.getTime() < this.config.WEBHOOK_DISABLE_AFTER_MS) return;
    const reason =
      `Seatlink turned this endpoint off after ${health!.consecutiveFailures} failed deliveries in a row ` +
      `since ${since.toISOString()} (the last: ${error}). Deliveries wait until you turn it on again.`;
    try {
      await this.commandBus.execute(
        new WebhooksCommandMessage(
          {
            type: 'DisableFailingWebhookEndpoint',
            data: { userId: route.userId, endpointId: route.endpointId, reason, now: at.toISOString() },
          },
          { commandId: uuidv5(`${route.endpointId}/${since.toISOString()}`, DISABLE_ID_NAMESPACE) },
        ),
      );
    } catch (err) {
      // The next failure tries again.
      this.logger.warn(`endpoint ${route.endpointId} was not disabled: ${safeErrorMessage(err)}`);
    }
  }
}
