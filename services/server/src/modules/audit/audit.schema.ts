import {
  bigint,
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

// The audit module's tables: read models, built by the audit-log projection from the events alone (`npm run replay`
// rebuilds them, equal to the live-built ones).

/**
 * Read model: a user's audit log (docs/reference.md "Audit entry"), one row per event that moved money, access or a
 * link of the user — and one row per link and hour for its claims, however many (`count`).
 */
export const auditEntries = pgTable(
  'audit_entries',
  {
    /** The event's id; for a link's claims in an hour, one derived from the link and the hour (claimsEntryId). */
    id: uuid('id').primaryKey(),
    /** Whose log it is in: the user the event is about (the target of an admin's action). */
    userId: uuid('user_id').notNull(),
    /** When it happened; for claims, the first claim of the hour. */
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    /** money, access or links (AUDIT_EVENT_KINDS). */
    kind: text('kind').notNull(),
    /** An AuditEventType: DISTRIBUTE, CREDITS_SET, USER_BANNED, ... */
    eventType: text('event_type').notNull(),
    /** SUCCESS or FAILED. */
    status: text('status').notNull(),
    ticketId: text('ticket_id'),
    distributionId: text('distribution_id'),
    ipAddress: text('ip_address'),
    bulkAction: boolean('bulk_action').notNull(),
    eventData: jsonb('event_data').$type<Record<string, unknown>>().notNull(),
    /** Who did it when it was not the user (an admin): their user id, named by their e-mail when read. */
    actorId: text('actor_id'),
    /** What it acts on besides a ticket and a link (an API key, a webhook endpoint, a passkey), named when read. */
    subjectId: text('subject_id'),
    /** How many events the row stands for: a link's claims in the hour; 1 for any other entry. */
    count: integer('count').notNull().default(1),
    /** The last of them (claims); null for any other entry. */
    lastAt: timestamp('last_at', { withTimezone: true }),
    /**
     * The order the row was made in, which is the order of the feed (the projection applies events in it): what puts
     * the entries of one instant in order (a distribution's Credits Spent before its Ticket Distributed).
     */
    seq: bigint('seq', { mode: 'number' }).notNull().generatedByDefaultAsIdentity(),
  },
  (t) => [
    // A user's entries newest first (the page; the entries of one instant last made first), and the prefix filters on
    // ids and addresses within them.
    index('audit_user_time_idx').on(t.userId, t.createdAt.desc(), t.seq.desc()),
    index('audit_user_ticket_idx').on(t.userId, t.ticketId.op('text_pattern_ops')),
    index('audit_user_distribution_idx').on(t.userId, t.distributionId.op('text_pattern_ops')),
    index('audit_user_ip_idx').on(t.userId, t.ipAddress.op('text_pattern_ops')),
  ],
);

/**
 * Read model: the names an audit entry is read by, in place of its ids — a ticket's title and seat, a link's label, a
 * user's e-mail, an API key's, a webhook endpoint's and a passkey's name — as the events last gave them. Nothing is
 * ever deleted: a ticket gone from its wallet, or a key revoked, keeps its name in the log.
 */
export const auditNames = pgTable(
  'audit_names',
  {
    /** ticket, link, user, api-key, webhook or passkey. */
    kind: text('kind').notNull(),
    id: text('id').notNull(),
    /** The title, label, e-mail, name or address (a link without a label: null). */
    name: text('name'),
    /** A ticket's seat ('Section A, Row 3, Seat 12'). */
    detail: text('detail'),
  },
  (t) => [primaryKey({ name: 'audit_names_pkey', columns: [t.kind, t.id] })],
);
