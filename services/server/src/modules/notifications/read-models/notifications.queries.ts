import {
  type AppNotification,
  EARLIEST_DATE_MS,
  LATEST_DATE_MS,
  type NotificationKind,
  type NotificationPreferences,
  type NotificationsResponse,
} from '@seatlink/contracts';
import { and, count, desc, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Executor } from '../../../infra/db/database.js';
import { linkLabels } from '../../distribution/index.js';
import { ticketAndAccountNames } from '../../wallet-accounts/index.js';
import { NO_EMAIL } from '../notifications.decider.js';
import { notificationPreferences, notifications } from '../notifications.schema.js';

export type NotificationRow = typeof notifications.$inferSelect;
type Row = NotificationRow;

/** Where a page ends: when its last notification last grew, and its id. */
export interface NotificationsCursor {
  updatedAt: Date;
  id: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function encodeCursor(row: Pick<Row, 'updatedAt' | 'id'>): string {
  return Buffer.from(`${row.updatedAt.toISOString()}|${row.id}`).toString('base64url');
}

/** The cursor a `before` holds; null when it is not one this server wrote. */
export function decodeCursor(before: string): NotificationsCursor | null {
  const [at, id, ...rest] = Buffer.from(before, 'base64url').toString('utf8').split('|');
  if (rest.length > 0 || !at || !id || !UUID.test(id) || !/^\d{4}-\d{2}-\d{2}T[\d:.]+Z$/.test(at)) return null;
  const updatedAt = new Date(at);
  const ms = updatedAt.getTime();
  // Only moments the database can hold (year 1 to 9999): year 0 is a date to JavaScript, not to PostgreSQL.
  if (Number.isNaN(ms) || ms < EARLIEST_DATE_MS || ms > LATEST_DATE_MS) return null;
  return { updatedAt, id };
}

export async function unreadNotifications(db: Executor, userId: string): Promise<number> {
  const [row] = await db
    .select({ unread: count() })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
  return Number(row?.unread ?? 0);
}

/** One page of a user's notifications, newest change first, named by their tickets, labels and accounts as they are now. */
export async function notificationsPage(
  db: Executor,
  userId: string,
  limit: number,
  before: NotificationsCursor | null,
): Promise<NotificationsResponse> {
  const rows = await db
    .select()
    .from(notifications)
    .where(
      and(
        eq(notifications.userId, userId),
        before
          ? or(
              lt(notifications.updatedAt, before.updatedAt),
              and(eq(notifications.updatedAt, before.updatedAt), sql`${notifications.id} < ${before.id}::uuid`),
            )
          : undefined,
      ),
    )
    .orderBy(desc(notifications.updatedAt), desc(notifications.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const [described, unread] = await Promise.all([
    describeNotifications(db, userId, page),
    unreadNotifications(db, userId),
  ]);
  return {
    notifications: described,
    unread,
    next_before: rows.length > limit ? encodeCursor(page[page.length - 1]!) : null,
  };
}

/** One user's notification rows as the API and the e-mails tell of them: named by their tickets, labels and accounts as they are now. */
export async function describeNotifications(
  db: Executor,
  userId: string,
  rows: readonly Row[],
): Promise<AppNotification[]> {
  const links = rows.filter((r) => r.kind.startsWith('link_')).map((r) => r.subjectId!);
  const accounts = rows.filter((r) => r.kind === 'account_reauth').map((r) => r.subjectId!);
  const tickets = rows.flatMap((r) => (r.ticketId ? [r.ticketId] : []));
  const [labels, names] = await Promise.all([
    linkLabels(db, userId, [...new Set(links)]),
    ticketAndAccountNames(db, userId, [...new Set(tickets)], [...new Set(accounts)]),
  ]);
  return rows.map((r) => toNotification(r, labels, names));
}

/** How the user wants notifications by e-mail (none, before they choose). */
export async function emailPreferences(db: Executor, userId: string): Promise<NotificationPreferences> {
  const [row] = await db
    .select({ email: notificationPreferences.email })
    .from(notificationPreferences)
    .where(eq(notificationPreferences.userId, userId));
  return { email: { ...NO_EMAIL, ...row?.email } };
}

function toNotification(
  r: Row,
  labels: Map<string, string>,
  names: { tickets: Map<string, string>; accounts: Map<string, string> },
): AppNotification {
  const isLink = r.kind.startsWith('link_');
  const isAccount = r.kind === 'account_reauth';
  return {
    id: r.id,
    kind: r.kind as NotificationKind,
    count: r.count,
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
    read: r.readAt !== null,
    ticket_id: r.ticketId,
    distribution_id: isLink ? r.subjectId : null,
    account_id: isAccount ? r.subjectId : null,
    subject: isAccount
      ? (names.accounts.get(r.subjectId!) ?? null)
      : r.ticketId
        ? (names.tickets.get(r.ticketId) ?? null)
        : null,
    label: isLink ? (labels.get(r.subjectId!) ?? null) : null,
    max_clicks: r.data.maxClicks ?? null,
    expires_at: r.data.expiresAt ?? null,
    credits: r.data.credits ?? null,
    amount_pence: r.data.amountPence ?? null,
    claimed_by: r.data.claimedBy ?? null,
  };
}
