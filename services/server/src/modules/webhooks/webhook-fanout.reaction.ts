import { Inject, Injectable, Logger } from '@nestjs/common';
import { QueueName } from '@seatlink/contracts';
import { inArray, param, sql } from 'drizzle-orm';
import { APP_CONFIG, type AppConfig } from '../../infra/config/config.js';
import type { Tx } from '../../infra/db/database.js';
import type { RecordedEvent } from '../../infra/event-store/event-store.port.js';
import { JOB_QUEUE, type JobQueue } from '../../infra/queue/queue.port.js';
import {
  EventSubscription,
  type Subscription,
  type SubscriptionContext,
} from '../../infra/subscriptions/subscription.js';
import { linkClickLimits, linkRecipients } from '../distribution/index.js';
import { DELIVER_WEBHOOKS_JOB, failDeleted, keyJobId } from './webhook-deliveries.service.js';
import {
  deliveryIdOf,
  linkOf,
  type OutgoingEvent,
  SOURCE_EVENTS,
  ticketChangeOf,
  webhookEventsOf,
} from './webhook-events.js';
import { insertTicketChanges, type TicketChangeRow, takeTicketChanges } from './webhook-ticket-batches.js';
import { WEBHOOK_EVENT_NAMES, type WebhookEvent } from './webhooks.events.js';
import { type webhookDeliveries, webhookEndpointHealth, webhookRoutes } from './webhooks.schema.js';

type Route = typeof webhookRoutes.$inferSelect;
/** A delivery as the fan-out makes it. */
type Delivery = Required<
  Pick<
    typeof webhookDeliveries.$inferInsert,
    'id' | 'endpointId' | 'userId' | 'orderKey' | 'eventId' | 'type' | 'payload' | 'createdAt' | 'occurredAt'
  >
> & { nextAttemptAt: Date };

/** Rows per insert statement. */
const CHUNK = 500;

/**
 * The webhook fan-out: each event of links, tickets and credits becomes a delivery to every enabled endpoint of its
 * owner that asked for its type, queued in the transaction that moves this reaction's checkpoint (so a crash neither
 * loses nor doubles one), and a delivery job is queued once it has committed. It keeps its own copy of the endpoints
 * (`webhook_routes`) from their events in feed order: an event reaches the endpoints that existed when it happened.
 * Delivering is the job's work, never this reaction's: a slow endpoint holds nothing here.
 *
 * `tickets.synced` is sent per sync, not per event: a ticket's change is collected for each endpoint that asked for it
 * (`webhook_ticket_changes`, with the checkpoint), and the account's WalletAccountSynced (or WalletAccountDeleted)
 * makes what was collected into deliveries of at most WEBHOOK_TICKETS_PER_DELIVERY tickets; what waits longer than
 * WEBHOOK_BATCH_WAIT_MS for it goes at the sweep (WebhookTicketBatches).
 */
@Injectable()
@EventSubscription()
export class WebhookFanoutReaction implements Subscription {
  readonly name = 'webhook-fanout';
  readonly kind = 'reaction' as const;
  readonly handles = [...WEBHOOK_EVENT_NAMES, ...SOURCE_EVENTS] as const;
  private readonly logger = new Logger('Webhooks');

  constructor(
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async apply(events: readonly RecordedEvent[], { tx, afterCommit }: SubscriptionContext) {
    const users = [...new Set(events.map((e) => (e.data as { userId: string }).userId))];
    const routes = new Map<string, Route>();
    for (const route of await tx.select().from(webhookRoutes).where(inArray(webhookRoutes.userId, users))) {
      routes.set(route.endpointId, route);
    }
    // Each user's endpoints (made again when an endpoint's event changes one).
    const byUser = new Map<string, Route[]>();
    const index = () => {
      byUser.clear();
      for (const route of routes.values()) byUser.set(route.userId, [...(byUser.get(route.userId) ?? []), route]);
    };
    index();
    const changed = new Set<string>();
    // Only the claims of users with endpoints need their link's limit.
    const clicked = events
      .filter((e) => e.type === 'LinkClicked')
      .map((e) => e.data as { distributionId: string; userId: string });
    const limits = await linkClickLimits(tx, [
      ...new Set(clicked.filter((c) => byUser.has(c.userId)).map((c) => c.distributionId)),
    ]);
    // Whom the links of the users with endpoints are for, as their link events say.
    const recipients = await linkRecipients(tx, [
      ...new Set(
        events.flatMap((e) => {
          const link = linkOf(e);
          return link !== null && byUser.has((e.data as { userId: string }).userId) ? [link] : [];
        }),
      ),
    ]);

    const enabledAgain: string[] = [];
    const deleted: string[] = [];
    const deliveries: Delivery[] = [];
    // One job per endpoint, order key and second its deliveries fall due in: it delivers that key's due deliveries one
    // after the other. The batches of one second share it (a link claimed a thousand times a second makes one job a
    // second, not one a batch); a delivery that falls due after it ran is queued by it, or by the sweep. An endpoint
    // Seatlink turned off gets its deliveries, and no job until it is on again.
    const jobs = new Map<string, { endpointId: string; orderKey: string; dueSecond: number }>();
    // A delivery, and its job when the endpoint is on.
    const addDelivery = (route: Pick<Route, 'endpointId' | 'enabled'>, delivery: Delivery) => {
      deliveries.push(delivery);
      if (!route.enabled) return;
      const dueSecond = Math.ceil(delivery.nextAttemptAt.getTime() / 1000);
      jobs.set(keyJobId(route.endpointId, delivery.orderKey, delivery.nextAttemptAt.getTime()), {
        endpointId: route.endpointId,
        orderKey: delivery.orderKey,
        dueSecond,
      });
    };
    // Ticket changes collected for `tickets.synced`, written before a sync's end takes them (and at the batch's end).
    let changes: TicketChangeRow[] = [];
    const collect = async () => {
      await insertTicketChanges(tx, changes);
      changes = [];
    };
    for (const recorded of events) {
      if ((WEBHOOK_EVENT_NAMES as readonly string[]).includes(recorded.type)) {
        const event = { type: recorded.type, data: recorded.data } as WebhookEvent;
        const route = evolveRoute(routes.get(event.data.endpointId) ?? null, event);
        if (route) {
          routes.set(route.endpointId, route);
          changed.add(route.endpointId);
          index();
        }
        if (event.type === 'WebhookEndpointEnabled') enabledAgain.push(event.data.endpointId);
        if (event.type === 'WebhookEndpointDeleted') deleted.push(event.data.endpointId);
        continue;
      }
      const userId = (recorded.data as { userId: string }).userId;
      if (!byUser.has(userId)) continue;
      if (recorded.type === 'WalletAccountSynced' || recorded.type === 'WalletAccountDeleted') {
        // The sync finished (or the account is gone): what was collected for the account goes, in batches.
        await collect();
        const { accountId } = recorded.data as { accountId: string };
        const batches = await takeTicketChanges(tx, sql`account_id = ${accountId}`, {
          trigger: recorded.id,
          at: recorded.createdAt,
          finished: true,
          skipLocked: false,
          standing: (endpointId) => {
            const route = routes.get(endpointId);
            if (!route) return null;
            return { dropped: route.deleted || !(route.enabled || route.held), enabled: route.enabled };
          },
        });
        for (const { endpointId, events: made } of batches) {
          for (const out of made) {
            addDelivery(routes.get(endpointId)!, deliveryOf(out, endpointId, recorded.createdAt, 0));
          }
        }
        continue;
      }
      const change = ticketChangeOf(recorded);
      const outgoing = webhookEventsOf(recorded, limits, recipients);
      for (const route of byUser.get(userId) ?? []) {
        // An endpoint its owner turned off gets nothing; one Seatlink turned off keeps what comes for it.
        if (route.deleted || !(route.enabled || route.held)) continue;
        if (change && route.events.includes('tickets.synced')) {
          changes.push({
            endpointId: route.endpointId,
            eventId: recorded.id,
            userId,
            accountId: change.accountId,
            ticketId: change.entry.ticket_id,
            item: JSON.stringify(change.entry),
            recordedAt: recorded.createdAt,
          });
        }
        for (const out of outgoing) {
          if (!route.events.includes(out.type)) continue;
          addDelivery(route, deliveryOf(out, route.endpointId, recorded.createdAt, this.config.WEBHOOK_SETTLE_MS));
        }
      }
    }
    await collect();
    // Enabled again: its run of failures starts from nothing (with the event, so a crash cannot leave the old one).
    if (enabledAgain.length > 0) {
      await tx.delete(webhookEndpointHealth).where(inArray(webhookEndpointHealth.endpointId, enabledAgain));
    }
    await failDeleted(tx, deleted);

    const written = [...changed].map((id) => routes.get(id)!);
    for (let i = 0; i < written.length; i += CHUNK) {
      await upsertRoutes(tx, written.slice(i, i + CHUNK));
    }
    for (let i = 0; i < deliveries.length; i += CHUNK) await insertDeliveries(tx, deliveries.slice(i, i + CHUNK));
    if (jobs.size === 0) return;
    afterCommit(async () => {
      // All at once: a queue that is away costs one wait, not one a key. What is not queued, the sweep queues.
      const added = await Promise.allSettled(
        [...jobs].map(([jobId, { endpointId, orderKey, dueSecond }]) =>
          this.queue.add(
            QueueName.Webhooks,
            DELIVER_WEBHOOKS_JOB,
            { endpointId, orderKey },
            { jobId, delayMs: Math.max(0, dueSecond * 1000 - Date.now()) },
          ),
        ),
      );
      const failed = added.filter((a) => a.status === 'rejected');
      if (failed.length > 0) {
        this.logger.warn(
          `${failed.length} webhook delivery job(s) not queued (the sweep queues them): ${String(failed[0]!.reason)}`,
        );
      }
    });
  }
}

/**
 * A delivery of `out`. It waits WEBHOOK_SETTLE_MS after its event happened: a claim is recorded a few milliseconds
 * after it was counted, so a recall made just after a claim can be recorded before it, and the wait lets the claim
 * take its place in front.
 */
function deliveryOf(out: OutgoingEvent, endpointId: string, at: Date, settleMs: number): Delivery {
  // A link's events go in the order they happened (a claim is recorded a moment after it counted); a ticket's and a
  // balance's come from one stream each, in the order they were recorded.
  const told = out.orderKey.startsWith('link:') ? new Date(out.at) : at;
  const occurredAt = Number.isNaN(told.getTime()) ? at : told;
  // Never later than the wait after it was recorded (a time ahead of the clock waits no longer).
  const due = new Date(Math.max(at.getTime(), Math.min(occurredAt.getTime(), at.getTime()) + settleMs));
  return {
    id: deliveryIdOf(out.id, endpointId),
    endpointId,
    userId: out.userId,
    orderKey: out.orderKey,
    eventId: out.id,
    type: out.type,
    payload: out.payload,
    createdAt: at,
    occurredAt,
    nextAttemptAt: due,
  };
}

/** The route after an endpoint's event. */
export function evolveRoute(route: Route | null, event: WebhookEvent): Route | null {
  const d = event.data;
  if (event.type === 'WebhookEndpointCreated') {
    const { url, events, secretSealed } = event.data;
    return {
      endpointId: d.endpointId,
      userId: d.userId,
      url,
      events,
      enabled: true,
      held: false,
      deleted: false,
      secretSealed,
      previousSecretSealed: null,
      previousSecretUntil: null,
    };
  }
  if (!route) return null;
  switch (event.type) {
    case 'WebhookEndpointUpdated':
      return { ...route, url: event.data.url, events: event.data.events };
    case 'WebhookEndpointDisabled':
      return { ...route, enabled: false, held: event.data.by === 'seatlink' };
    case 'WebhookEndpointEnabled':
      return { ...route, enabled: true, held: false };
    case 'WebhookSecretRolled': {
      // The secret it replaces signs beside it until the time the event recorded (docs/reference.md "Webhooks").
      const until = event.data.previousSecretUntil;
      return {
        ...route,
        secretSealed: event.data.secretSealed,
        previousSecretSealed: until ? route.secretSealed : null,
        previousSecretUntil: until ? new Date(until) : null,
      };
    }
    case 'WebhookEndpointDeleted':
      return { ...route, deleted: true, enabled: false, held: false };
  }
}

/**
 * Inserts deliveries in one statement with one parameter per column (a claim a millisecond makes as many rows: the
 * statement costs the same whatever their number); one made already (a batch applied again) is left as it is.
 */
async function insertDeliveries(tx: Tx, rows: readonly Delivery[]) {
  const column = <T>(of: (d: Delivery) => T) => param(rows.map(of));
  await tx.execute(sql`
    insert into webhook_deliveries
      (id, endpoint_id, user_id, order_key, event_id, type, payload, created_at, occurred_at, next_attempt_at)
    select * from unnest(${column((d) => d.id)}::uuid[], ${column((d) => d.endpointId)}::uuid[],
                         ${column((d) => d.userId)}::uuid[], ${column((d) => d.orderKey)}::text[],
                         ${column((d) => d.eventId)}::uuid[], ${column((d) => d.type)}::text[],
                         ${column((d) => d.payload)}::text[], ${column((d) => d.createdAt.toISOString())}::timestamptz[],
                         ${column((d) => d.occurredAt.toISOString())}::timestamptz[],
                         ${column((d) => d.nextAttemptAt.toISOString())}::timestamptz[])
    on conflict (id) do nothing`);
}

/** Writes the routes a batch changed, in one statement. */
async function upsertRoutes(tx: Tx, rows: Route[]) {
  await tx
    .insert(webhookRoutes)
    .values(rows)
    .onConflictDoUpdate({
      target: webhookRoutes.endpointId,
      set: {
        url: sql`excluded.url`,
        events: sql`excluded.events`,
        enabled: sql`excluded.enabled`,
        held: sql`excluded.held`,
        deleted: sql`excluded.deleted`,
        secretSealed: sql`excluded.secret_sealed`,
        previousSecretSealed: sql`excluded.previous_secret_sealed`,
        previousSecretUntil: sql`excluded.previous_secret_until`,
      },
    });
}
