import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';

// ---------------------------------------------------------------------------
// Event store (the SQL adapter of the event-store port)
// ---------------------------------------------------------------------------

export const events = pgTable(
  'events',
  {
    /** Taken when the row is inserted (not when it commits): unique by its sequence, ordered within a transaction. */
    globalPosition: bigserial('global_position', { mode: 'bigint' }).notNull(),
    /**
     * Raised by one each time the database is found restored into another cluster (whose transaction ids start
     * again from low numbers): the feed is ordered by (epoch, transaction_id, global_position).
     */
    epoch: integer('epoch').notNull().default(0),
    /**
     * The appending transaction's id (xid8, kept as a bigint so every driver reads it as a plain integer).
     * Within an epoch the feed is ordered by (transaction_id, global_position).
     */
    transactionId: bigint('transaction_id', { mode: 'bigint' })
      .notNull()
      .default(sql`(pg_current_xact_id()::text::bigint)`),
    streamId: text('stream_id').notNull(),
    streamPosition: integer('stream_position').notNull(),
    eventId: uuid('event_id').notNull(),
    type: text('type').notNull(),
    data: jsonb('data').notNull(),
    metadata: jsonb('metadata').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // A stream's revision is its last position: an append at a position already taken is refused by this key, which
    // is how two appends with the same expected revision are told apart (no table of streams to lock and update).
    primaryKey({ name: 'events_pkey', columns: [t.streamId, t.streamPosition] }),
    unique('events_event_id_key').on(t.eventId),
    index('events_feed_idx').on(t.epoch, t.transactionId, t.globalPosition),
    // The feed as a reader of some types reads it (`seatlink_read_feed_for`): each type's events in feed order, so a
    // reader of sign-ups passes a million clicks without reading them.
    index('events_type_feed_idx').on(t.type, t.epoch, t.transactionId, t.globalPosition),
  ],
);

/** One row: the current epoch of the feed (see `events.epoch`). */
export const eventStoreMeta = pgTable('event_store_meta', {
  id: integer('id').primaryKey().default(1),
  epoch: integer('epoch').notNull().default(0),
  rebasedAt: timestamp('rebased_at', { withTimezone: true }),
});

/**
 * Versioned read models (read-model-versions.ts): per table, the version at or below which its changes cannot be
 * answered — raised to the emptying transaction when the table is truncated (a rebuild), and by a purge of what a table
 * keeps of removed rows. A client's version at or below it is answered in full.
 */
export const readModelFloors = pgTable('read_model_floors', {
  tableName: text('table_name').primaryKey(),
  version: bigint('version', { mode: 'number' }).notNull(),
});

// ---------------------------------------------------------------------------
// Subscriptions: named readers of the feed (read models and reactions)
// ---------------------------------------------------------------------------

/** Where each subscription has read the feed up to; moved in the same transaction as the subscription's writes. */
export const subscriptionCheckpoints = pgTable('subscription_checkpoints', {
  name: text('name').primaryKey(),
  /** null: nothing read yet (or reset for a rebuild). */
  position: text('position'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Events a subscription gave up on after its retries: it moved past them; an operator retries or skips them. */
export const parkedEvents = pgTable(
  'parked_events',
  {
    id: uuid('id').primaryKey(),
    subscription: text('subscription').notNull(),
    eventId: uuid('event_id').notNull(),
    position: text('position').notNull(),
    streamId: text('stream_id').notNull(),
    eventType: text('event_type').notNull(),
    /** The event itself (whatever store keeps the events), so a retry can apply it again. */
    streamRevision: integer('stream_revision').notNull(),
    eventData: jsonb('event_data').notNull(),
    eventMetadata: jsonb('event_metadata').notNull(),
    eventCreatedAt: timestamp('event_created_at', { withTimezone: true }).notNull(),
    error: text('error').notNull(),
    attempts: integer('attempts').notNull(),
    parkedAt: timestamp('parked_at', { withTimezone: true }).notNull(),
    status: text('status', { enum: ['parked', 'retried', 'skipped'] })
      .notNull()
      .default('parked'),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    resolvedBy: text('resolved_by'),
  },
  (t) => [
    unique('parked_events_subscription_event_key').on(t.subscription, t.eventId),
    index('parked_events_status_idx').on(t.status),
  ],
);

/** The process that holds the subscriptions' lock says it is alive here (health reports a silent one). */
export const subscriptionHosts = pgTable('subscription_hosts', {
  role: text('role').primaryKey(),
  owner: text('owner').notNull(),
  acquiredAt: timestamp('acquired_at', { withTimezone: true }).notNull(),
  heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }).notNull(),
});

// ---------------------------------------------------------------------------
// Idempotency keys of state-changing HTTP calls, and the e-mail outbox
// ---------------------------------------------------------------------------

export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    /** SHA-256 of the caller's scope (user or IP), the method, the path and the key. */
    scopeHash: text('scope_hash').primaryKey(),
    /** SHA-256 of the request body: the same key with another body is refused. */
    fingerprint: text('fingerprint').notNull(),
    state: text('state', { enum: ['running', 'done'] }).notNull(),
    statusCode: integer('status_code'),
    body: jsonb('body'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    /** A running request that has not finished by then is taken to have died; a retry may run it again. */
    lockedUntil: timestamp('locked_until', { withTimezone: true }).notNull(),
    /** The process running it (ProcessLiveness): once that process is gone, a retry may run it at once. */
    owner: integer('owner'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('idempotency_keys_expires_idx').on(t.expiresAt)],
);

/**
 * E-mails written by reactions in the same transaction as their checkpoint, sent afterwards by the dispatcher: a crash
 * between the command and the e-mail neither loses it nor writes it twice. The body is erased once sent.
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    /** Derived from the event that asked for the e-mail: the same event never queues a second message. */
    id: uuid('id').primaryKey(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    text: text('text'),
    html: text('html'),
    link: text('link'),
    /** Headers beyond the usual ones (List-Unsubscribe). */
    headers: jsonb('headers').$type<Record<string, string>>(),
    status: text('status', { enum: ['pending', 'sent', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull(),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    lastError: text('last_error'),
  },
  (t) => [index('mail_outbox_due_idx').on(t.status, t.nextAttemptAt)],
);
