import type { WebhookDeliveryStatus, WebhookEventType } from '@seatlink/contracts';
import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';

/** Read model: every endpoint a user added, as the settings page lists it (never its secret). */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    endpointId: uuid('endpoint_id').primaryKey(),
    userId: uuid('user_id').notNull(),
    url: text('url').notNull(),
    events: jsonb('events').$type<WebhookEventType[]>().notNull(),
    enabled: boolean('enabled').notNull(),
    disabledReason: text('disabled_reason'),
    secretPrefix: text('secret_prefix').notNull(),
    /** Until when the secret before the current one still signs beside it (a roll with a grace). */
    previousSecretUntil: timestamp('previous_secret_until', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [index('webhook_endpoints_user_idx').on(t.userId)],
);

/**
 * Where the fan-out sends each event: the endpoints as the fan-out reaction has read them, in feed order (so an event
 * recorded after an endpoint was added reaches it, one recorded after it was deleted does not), with the sealed
 * secret deliveries are signed with. Written by the reaction only; a rebuild of the read models leaves it.
 */
export const webhookRoutes = pgTable(
  'webhook_routes',
  {
    endpointId: uuid('endpoint_id').primaryKey(),
    userId: uuid('user_id').notNull(),
    url: text('url').notNull(),
    events: jsonb('events').$type<WebhookEventType[]>().notNull(),
    enabled: boolean('enabled').notNull(),
    /** Disabled by Seatlink (failing), not by its owner: its events are kept for it until it is enabled again. */
    held: boolean('held').notNull().default(false),
    deleted: boolean('deleted').notNull().default(false),
    secretSealed: text('secret_sealed').notNull(),
    /** The secret a roll with a grace replaced: it still signs beside the new one until `previous_secret_until`. */
    previousSecretSealed: text('previous_secret_sealed'),
    previousSecretUntil: timestamp('previous_secret_until', { withTimezone: true }),
  },
  (t) => [index('webhook_routes_user_idx').on(t.userId)],
);

/**
 * Operational: each delivery of an event to an endpoint, its tries and its outcome (the delivery log). Deliveries of
 * one endpoint that share an `order_key` (a link, a ticket, a balance) go one after the other in the order their
 * events happened (`occurred_at`, then `seq`): the next waits until the one before it was delivered or given up. `leased_until`: a worker is trying it.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey(),
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    endpointId: uuid('endpoint_id').notNull(),
    userId: uuid('user_id').notNull(),
    orderKey: text('order_key').notNull(),
    eventId: uuid('event_id').notNull(),
    type: text('type').notNull(),
    payload: text('payload').notNull(),
    status: text('status').$type<WebhookDeliveryStatus>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastStatus: integer('last_status'),
    lastLatencyMs: integer('last_latency_ms'),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    /** When what it tells of happened: one order key's deliveries go in this order. */
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    leasedUntil: timestamp('leased_until', { withTimezone: true }),
  },
  (t) => [
    index('webhook_deliveries_queue_idx')
      .on(t.endpointId, t.orderKey, t.occurredAt, t.seq)
      .where(sql`status = 'pending'`),
    // The deliveries being tried (a lease is cleared with the try's outcome): whether a key has one in flight.
    index('webhook_deliveries_leased_idx')
      .on(t.endpointId, t.orderKey)
      .where(sql`status = 'pending' and leased_until is not null`),
    index('webhook_deliveries_log_idx').on(t.endpointId, t.createdAt),
    // The purge of old finished deliveries.
    index('webhook_deliveries_created_idx').on(t.createdAt),
  ],
);

/**
 * Operational: the ticket changes of a sync collected for each endpoint that asked for `tickets.synced`, written by the
 * fan-out with its checkpoint (one row per endpoint and ticket event: a batch applied again adds none twice). When the
 * sync finishes (WalletAccountSynced, or the account deleted), or after WEBHOOK_BATCH_WAIT_MS without that, an
 * account's rows become deliveries of at most WEBHOOK_TICKETS_PER_DELIVERY tickets, in `seq` order; `batch_event_id`
 * names the delivery that took a row (null: waiting). Rows taken are kept as long as deliveries are, so an event
 * applied again later finds its row and is not sent twice.
 */
export const webhookTicketChanges = pgTable(
  'webhook_ticket_changes',
  {
    endpointId: uuid('endpoint_id').notNull(),
    /** The ticket event's id. */
    eventId: uuid('event_id').notNull(),
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    userId: uuid('user_id').notNull(),
    accountId: uuid('account_id').notNull(),
    ticketId: uuid('ticket_id').notNull(),
    /** The entry of the `tickets` list, as JSON. */
    item: text('item').notNull(),
    recordedAt: timestamp('recorded_at', { withTimezone: true }).notNull(),
    batchEventId: uuid('batch_event_id'),
  },
  (t) => [
    primaryKey({ columns: [t.endpointId, t.eventId] }),
    index('webhook_ticket_changes_waiting_idx')
      .on(t.accountId, t.endpointId, t.seq)
      .where(sql`batch_event_id is null`),
    index('webhook_ticket_changes_due_idx')
      .on(t.recordedAt)
      .where(sql`batch_event_id is null`),
    index('webhook_ticket_changes_recorded_idx').on(t.recordedAt),
  ],
);

/** Operational: an endpoint's run of failed tries since its last success (what disables it). */
export const webhookEndpointHealth = pgTable('webhook_endpoint_health', {
  endpointId: uuid('endpoint_id').primaryKey(),
  consecutiveFailures: integer('consecutive_failures').notNull().default(0),
  failingSince: timestamp('failing_since', { withTimezone: true }),
  lastSuccessAt: timestamp('last_success_at', { withTimezone: true }),
});
