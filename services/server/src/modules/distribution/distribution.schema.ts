import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

// Tables of distribution links. `links` and `link_click_minutes` are read models, built from the events alone (`npm run
// replay` rebuilds them). What a claim decides on is `link_counters`, write-side state of its own that no rebuild
// touches: a claim raises its count in one conditional statement, which is what holds a link to exactly its max clicks;
// each counted click is then recorded as an event, and `links` counts those.

/**
 * What a claim decides on, one row per link: written when the link is made and when it is recalled (by the request
 * itself, and again by the link-counters reaction should the request have died between), and counted by
 * `seatlink_claim_link`, the only writer of `clicks`. Not a read model: a rebuild never empties it, so no count is
 * lost while one runs.
 */
export const linkCounters = pgTable(
  'link_counters',
  {
    distributionId: uuid('distribution_id').primaryKey(),
    code: text('code').notNull(),
    ticketId: uuid('ticket_id').notNull(),
    userId: uuid('user_id').notNull(),
    maxClicks: integer('max_clicks'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    recalledAt: timestamp('recalled_at', { withTimezone: true }),
    clicks: integer('clicks').notNull().default(0),
    lastClickAt: timestamp('last_click_at', { withTimezone: true }),
    /**
     * The revision (on its ticket's stream) of the last edit of its settings written here (-1: none): an edit is
     * written only over an older one, so the reaction applying edits again never puts back settings edited since.
     */
    settingsRevision: integer('settings_revision').notNull().default(-1),
    /** The hash of the PIN a claim must bring (argon2id); null for none. */
    pinHash: text('pin_hash'),
    /**
     * Wrong PINs entered within the window that started at pin_failures_since (PIN_GUESS_WINDOW_MINUTES; a new PIN
     * starts afresh): the PIN_GUESS_ALERT_AT-th tells the owner (LinkPinGuessed). Locks nothing.
     */
    pinFailures: integer('pin_failures').notNull().default(0),
    pinFailuresSince: timestamp('pin_failures_since', { withTimezone: true }),
  },
  (t) => [uniqueIndex('link_counters_code_idx').on(t.code)],
);

/**
 * Read model: every link made (a recalled one stays, so its owner still sees it), with the clicks recorded for it:
 * behind its counter by the clicks not yet recorded as events and projected.
 */
export const links = pgTable(
  'links',
  {
    distributionId: uuid('distribution_id').primaryKey(),
    code: text('code').notNull(),
    ticketId: uuid('ticket_id').notNull(),
    userId: uuid('user_id').notNull(),
    maxClicks: integer('max_clicks'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    /** Its owner's label ("for Sam"). */
    label: text('label'),
    /** A recipient must enter a PIN (its hash is kept where claims decide: link_counters). */
    hasPin: boolean('has_pin').notNull().default(false),
    /** Whom the link is for (its named recipient): a name, an e-mail, or both; null for nobody named. */
    recipientName: text('recipient_name'),
    recipientEmail: text('recipient_email'),
    /** The expiry its owner was told is near (LinkExpiryNear): the expiry job looks for links not told of theirs. */
    expiryWarnedFor: timestamp('expiry_warned_for', { withTimezone: true }),
    /** The expiry recorded as passed (LinkExpired): the expiry job looks for links past theirs not recorded yet. */
    expiredFor: timestamp('expired_for', { withTimezone: true }),
    recalledAt: timestamp('recalled_at', { withTimezone: true }),
    clicks: integer('clicks').notNull().default(0),
    lastClickAt: timestamp('last_click_at', { withTimezone: true }),
    /** Who made the last click (LinkClicked): the name the recipient gave, if any, and their device ("iPhone"). */
    lastClaimName: text('last_claim_name'),
    lastClaimDevice: text('last_claim_device'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    /**
     * The transaction that last wrote the row (made, recalled, clicked), stamped by the database on every write
     * (infra/db/read-model-versions.ts): its ticket changed in GET /v1/tickets?since=.
     */
    version: bigint('version', { mode: 'number' }).notNull().default(0),
  },
  (t) => [
    uniqueIndex('links_code_idx').on(t.code),
    // A ticket's live link (one at a time: the ticket's stream decides it; a unique index here could refuse a batch
    // that recalls one link and makes the next in the same multi-row upsert).
    index('links_live_ticket_idx')
      .on(t.ticketId)
      .where(sql`recalled_at is null`),
    index('links_user_idx').on(t.userId),
    // Live links by expiry: those expiring within a day (the expiry job).
    index('links_live_expiry_idx')
      .on(t.expiresAt)
      .where(sql`recalled_at is null and expires_at is not null`),
    index('links_user_version_idx').on(t.userId, t.version),
    // A user's live links without a claim, by expiry ("Expiring unclaimed" of GET /v1/links/activity).
    index('links_user_unclaimed_expiry_idx')
      .on(t.userId, t.expiresAt)
      .where(sql`recalled_at is null and clicks = 0 and expires_at is not null`),
  ],
);

/**
 * The Idempotency-Keys of a link's counted claims, for 24 hours: a claim retried with its key (the answer was lost) is
 * answered with the click it was given, not counted again. Written by `seatlink_claim_link` under the link's row lock,
 * in the statement that counts, so one key is one click across every API process; a refused claim keeps no key.
 * Not a read model (no event has the keys): a rebuild leaves it as it is.
 */
export const linkClaimKeys = pgTable(
  'link_claim_keys',
  {
    distributionId: uuid('distribution_id').notNull(),
    key: text('key').notNull(),
    /** The click the key was given (the link's n-th). */
    n: integer('n').notNull(),
    claimedAt: timestamp('claimed_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ name: 'link_claim_keys_pkey', columns: [t.distributionId, t.key] }),
    index('link_claim_keys_claimed_idx').on(t.claimedAt),
  ],
);

/**
 * The click events of claims counted while the events are kept outside this database (KURRENTDB_URL): written by
 * `seatlink_claim_link` in the transaction that counts them, so an answered claim's event is durable before the
 * answer, and moved into the event store by ClickOutbox (each row deleted in the transaction that records it there).
 * Empty with the SQL event store, where the claim writes its events into `events` itself. Not a read model.
 */
export const clickOutbox = pgTable(
  'click_outbox',
  {
    eventId: uuid('event_id').primaryKey(),
    streamId: text('stream_id').notNull(),
    /** The click's position in its link's click stream (its number - 1). */
    position: integer('position').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('click_outbox_created_idx').on(t.createdAt)],
);

/**
 * The e-mails sent to links' named recipients, one row per event and kind of e-mail (`recipient-mails` reaction): the
 * e-mail is queued in the transaction that writes its row, and only when the row is new, so a batch retried, a
 * restart or a replay (a reset of the reaction) never mails anyone twice. Not a read model: a rebuild leaves it alone.
 */
export const recipientMails = pgTable(
  'recipient_mails',
  {
    eventId: text('event_id').notNull(),
    kind: text('kind').notNull(),
    distributionId: uuid('distribution_id').notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ name: 'recipient_mails_pkey', columns: [t.eventId, t.kind] })],
);

/**
 * The key that signs the unsubscribe links of recipients' e-mails (HMAC-SHA256), one row, made at random the first time
 * one is needed. Not a read model: a rebuild leaves it, so the links already mailed keep working.
 */
export const recipientMailKey = pgTable('recipient_mail_key', {
  id: integer('id').primaryKey(),
  secret: text('secret').notNull(),
});

/** Read model: per link and minute, the clicks counted (the click timeline of a card). */
export const linkClickMinutes = pgTable(
  'link_click_minutes',
  {
    distributionId: uuid('distribution_id').notNull(),
    minute: timestamp('minute', { withTimezone: true }).notNull(),
    clicks: integer('clicks').notNull(),
  },
  (t) => [uniqueIndex('link_click_minutes_key').on(t.distributionId, t.minute)],
);

/**
 * Operational: what a distribution request is about to pay for, written before it pays (not a read model: no event
 * says it, and a rebuild leaves it alone). The request deletes its row once every link it paid for is made or given
 * back; a row left behind — the process died mid-way, the database went away — is settled once due by the
 * settle-distributions job (DistributionSettlements.settleDue), which keeps working when the job queue loses its data,
 * as its schedule is kept from here and not from the queue.
 */
export const distributionSettlements = pgTable(
  'distribution_settlements',
  {
    /** The request and the links it pays for (a retry that pays for other links has a row of its own). */
    id: text('id').primaryKey(),
    userId: uuid('user_id').notNull(),
    /** The request (its command id, from its Idempotency-Key when it has one). */
    commandId: text('command_id').notNull(),
    links: jsonb('links').$type<Array<{ ticketId: string; distributionId: string }>>().notNull(),
    /** When the settle may look at it (then pushed on by a lease while one settles it). */
    dueAt: timestamp('due_at', { withTimezone: true }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('distribution_settlements_due_idx').on(t.dueAt)],
);

/**
 * The devices that have opened each link (a keyed hash of the recipient page's device id, never the id): the open call
 * inserts its row in the transaction that appends the LinkOpened event, and appends only when the row is new, so any
 * number of opens of one device at once make one event. Write-side state, not a read model: a rebuild leaves it.
 */
export const linkOpenDevices = pgTable(
  'link_open_devices',
  {
    distributionId: uuid('distribution_id').notNull(),
    deviceHash: text('device_hash').notNull(),
    openedAt: timestamp('opened_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ name: 'link_open_devices_pkey', columns: [t.distributionId, t.deviceHash] })],
);

/** Read model: per link and minute, the devices that first opened it (the open timeline of a link). */
export const linkOpenMinutes = pgTable(
  'link_open_minutes',
  {
    distributionId: uuid('distribution_id').notNull(),
    minute: timestamp('minute', { withTimezone: true }).notNull(),
    opens: integer('opens').notNull(),
  },
  (t) => [uniqueIndex('link_open_minutes_key').on(t.distributionId, t.minute)],
);

/** Read model: per link, the devices that opened it and the last first open. */
export const linkOpenTotals = pgTable(
  'link_open_totals',
  {
    distributionId: uuid('distribution_id').primaryKey(),
    userId: uuid('user_id').notNull(),
    opens: integer('opens').notNull(),
    lastOpenAt: timestamp('last_open_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('link_open_totals_user_idx').on(t.userId, t.opens)],
);

/** Read model: per user and day (UTC), the first opens of their links and the claims counted (GET /v1/links/activity). */
export const linkActivityDays = pgTable(
  'link_activity_days',
  {
    userId: uuid('user_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    opens: integer('opens').notNull().default(0),
    claims: integer('claims').notNull().default(0),
  },
  (t) => [primaryKey({ name: 'link_activity_days_pkey', columns: [t.userId, t.day] })],
);
