import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

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
