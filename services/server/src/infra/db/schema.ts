import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
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
    globalPosition: bigserial('global_position', { mode: 'bigint' }).primaryKey(),
    /**
     * The appending transaction's id (xid8, kept as a bigint so every driver reads it as a plain integer).
     * The feed is ordered by (transaction_id, global_position).
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
    unique('events_event_id_key').on(t.eventId),
    unique('events_stream_position_key').on(t.streamId, t.streamPosition),
    index('events_feed_idx').on(t.transactionId, t.globalPosition),
  ],
);

export const eventStreams = pgTable('event_streams', {
  streamId: text('stream_id').primaryKey(),
  revision: integer('revision').notNull(),
});

/** Where each projector has read the global feed up to (committed with its read-model rows). */
export const projectionCheckpoints = pgTable('projection_checkpoints', {
  name: text('name').primaryKey(),
  position: text('position'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

// ---------------------------------------------------------------------------
// Read models (built only by projections; `npm run replay` rebuilds them)
// ---------------------------------------------------------------------------

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    isAdmin: boolean('is_admin').notNull().default(false),
    isBanned: boolean('is_banned').notNull().default(false),
    emailVerified: boolean('email_verified').notNull().default(false),
    distributionCost: integer('distribution_cost'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    lastLoggedInAt: timestamp('last_logged_in_at', { withTimezone: true }),
  },
  (t) => [unique('users_email_key').on(t.email), index('users_created_at_idx').on(t.createdAt)],
);

export const creditBalances = pgTable('credit_balances', {
  userId: uuid('user_id').primaryKey(),
  balance: bigint('balance', { mode: 'number' }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});

export const inviteCodes = pgTable(
  'invite_codes',
  {
    id: uuid('id').primaryKey(),
    code: text('code').notNull(),
    used: integer('used').notNull().default(0),
    maxUses: integer('max_uses').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    createdBy: text('created_by').notNull(),
  },
  (t) => [unique('invite_codes_code_key').on(t.code)],
);

export const waitlistEntries = pgTable('waitlist_entries', {
  email: text('email').primaryKey(),
  firstName: text('first_name').notNull(),
  lastName: text('last_name').notNull(),
  joinedAt: timestamp('joined_at', { withTimezone: true }).notNull(),
});

// ---------------------------------------------------------------------------
// Operational state (not event-sourced: sessions are technical, not domain facts)
// ---------------------------------------------------------------------------

export const sessions = pgTable(
  'sessions',
  {
    /** SHA-256 of the session token; the token itself is never stored. */
    tokenHash: text('token_hash').primaryKey(),
    userId: uuid('user_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    ip: text('ip'),
    userAgent: text('user_agent'),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

/** Single-use tokens of e-mailed links (verification, password reset), stored only as their SHA-256. */
export const authTokens = pgTable(
  'auth_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    kind: text('kind', { enum: ['verify_email', 'reset_password'] }).notNull(),
    userId: uuid('user_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('auth_tokens_user_idx').on(t.userId, t.kind)],
);
