import type { NotificationEmailPreferences, NotificationKind } from '@seatlink/contracts';
import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

// Tables of the notification centre: read models of the notifications projection.

/**
 * A user's notifications, newest change first. A link's claims gather in one row while it is unread (`count`); once
 * read, the next claim opens a new one. `data` holds what the kind tells of (a limit, an expiry, credits and pence).
 */
export const notifications = pgTable(
  'notifications',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id').notNull(),
    kind: text('kind').notNull(),
    /** The link (distribution id) or wallet account it is about; null for credits. */
    subjectId: uuid('subject_id'),
    ticketId: uuid('ticket_id'),
    count: integer('count').notNull().default(1),
    data: jsonb('data').$type<NotificationData>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
    readAt: timestamp('read_at', { withTimezone: true }),
  },
  (t) => [
    // A user's page, newest change first.
    index('notifications_user_updated_idx').on(t.userId, t.updatedAt, t.id),
    // The unread count, and the open row a new claim of a link joins.
    index('notifications_user_unread_idx')
      .on(t.userId)
      .where(sql`read_at is null`),
    index('notifications_subject_unread_idx')
      .on(t.subjectId)
      .where(sql`read_at is null`),
  ],
);

export interface NotificationData {
  maxClicks?: number;
  expiresAt?: string;
  credits?: number;
  amountPence?: number;
  /** link_claimed: who made the latest claim it gathers (the name they gave, their device; null: not known). */
  claimedBy?: { name: string | null; device: string | null };
}

/**
 * What the projection needs to know of a link or wallet account to tell of it: whose it is, and a link's click limit
 * (a click of that number reached it).
 */
export const notificationSubjects = pgTable('notification_subjects', {
  id: uuid('id').primaryKey(),
  userId: uuid('user_id').notNull(),
  ticketId: uuid('ticket_id'),
  maxClicks: integer('max_clicks'),
});

/**
 * Read model: how each user wants notifications by e-mail (a user without a row wants none), and since when each
 * kind has been wanted (a kind turned on does not mail what came before).
 */
export const notificationPreferences = pgTable('notification_preferences', {
  userId: uuid('user_id').primaryKey(),
  email: jsonb('email').$type<NotificationEmailPreferences>().notNull(),
  /** Per kind, when it was last turned on (ISO). */
  since: jsonb('since').$type<Partial<Record<NotificationKind, string>>>().notNull(),
});

/**
 * Operational state of the notification e-mails (not a read model: a rebuild leaves it, so nothing is mailed twice):
 * each user's unsubscribe token, made with their first notification e-mail, and the day of their last digest.
 */
export const notificationMailState = pgTable(
  'notification_mail_state',
  {
    userId: uuid('user_id').primaryKey(),
    /** Random, 32 bytes base64url; it can only turn the user's notification e-mails off. */
    unsubscribeToken: text('unsubscribe_token').notNull(),
    /** The day (Europe/London, YYYY-MM-DD) of the last daily digest looked at. */
    digestSentOn: text('digest_sent_on'),
  },
  (t) => [uniqueIndex('notification_mail_state_token_idx').on(t.unsubscribeToken)],
);

/** How much of each notification has been e-mailed (its count at the time), at once and in a digest. */
export const notificationMailMarks = pgTable(
  'notification_mail_marks',
  {
    notificationId: uuid('notification_id').primaryKey(),
    emailedCount: integer('emailed_count').notNull().default(0),
    digestedCount: integer('digested_count').notNull().default(0),
    markedAt: timestamp('marked_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('notification_mail_marks_marked_idx').on(t.markedAt)],
);
