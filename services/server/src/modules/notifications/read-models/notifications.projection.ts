import type { NotificationKind } from '@seatlink/contracts';
import { and, count, eq, inArray, isNull, sql } from 'drizzle-orm';
import { v5 as uuidv5 } from 'uuid';
import type { Tx } from '../../../infra/db/database.js';
import type { RecordedEvent } from '../../../infra/event-store/event-store.port.js';
import { asSubscription, type Subscription } from '../../../infra/subscriptions/subscription.js';
import { notifications, notificationSubjects } from '../notifications.schema.js';

type Row = typeof notifications.$inferSelect;
type Subject = typeof notificationSubjects.$inferSelect;

/** Kinds that gather while unread: a link's claims, an account's failed sign-ins. */
const GATHERING: readonly NotificationKind[] = ['link_claimed', 'account_reauth'];
const NOTIFICATION_ID_NAMESPACE = '0c7d5e2a-9b41-4f36-a8e2-5d1c3b7f9e60';

/** The events it reads, and what of them it needs (each module's event, as recorded). */
interface Events {
  TicketDistributed: { distributionId: string; ticketId: string; userId: string; maxClicks: number | null };
  LinkUpdated: { distributionId: string; settings: { maxClicks: number | null } };
  LinkClicked: {
    distributionId: string;
    ticketId: string;
    userId: string;
    n: number;
    at: string;
    name?: string;
    device?: string;
  };
  LinkExpiryNear: { distributionId: string; ticketId: string; userId: string; expiresAt: string; at: string };
  LinkPinGuessed: { distributionId: string; ticketId: string; userId: string; failures: number; at: string };
  WalletAccountLinked: { accountId: string; userId: string };
  WalletAccountAuthFailed: { accountId: string; at: string };
  WalletAccountReauthenticated: { accountId: string; at: string };
  CreditsPurchased: { userId: string; amount: number; amountPence: number; at: string };
  NotificationsRead: { userId: string; ids: string[] | null; at: string };
}
type Handled = { [T in keyof Events]: { type: T; data: Events[T] } }[keyof Events];
const HANDLES = [
  'TicketDistributed',
  'LinkUpdated',
  'LinkClicked',
  'LinkExpiryNear',
  'LinkPinGuessed',
  'WalletAccountLinked',
  'WalletAccountAuthFailed',
  'WalletAccountReauthenticated',
  'CreditsPurchased',
  'NotificationsRead',
] as const satisfies ReadonlyArray<keyof Events>;

/** The link or account an event is about. */
function subjectOf(event: Handled): string | null {
  switch (event.type) {
    case 'TicketDistributed':
    case 'LinkUpdated':
    case 'LinkClicked':
    case 'LinkExpiryNear':
    case 'LinkPinGuessed':
      return event.data.distributionId;
    case 'WalletAccountLinked':
    case 'WalletAccountAuthFailed':
    case 'WalletAccountReauthenticated':
      return event.data.accountId;
    default:
      return null;
  }
}

/**
 * `notifications`: what the bell shows, built from the events of links, wallet accounts and payments, and the user's
 * NotificationsRead; `notification_subjects` whose each link and account is. Set-based: a batch loads the subjects it
 * names and their unread gathering rows in two statements, folds its events in memory in feed order (a claim joins its
 * link's unread row or opens one; a read closes rows, so a claim after it opens a new one), then writes the reads and
 * the rows. Ids derive from the event that opened a row, so a rebuild makes the same rows. Each user whose list
 * changed is told (`notifications.updated`) with their unread count.
 */
export const notificationsProjection: Subscription = asSubscription({
  name: 'notifications',
  kind: 'projection',
  tables: ['notifications', 'notification_subjects'],
  handles: HANDLES,
  async apply(recorded: readonly RecordedEvent[], { tx, push }) {
    const events = recorded.map((r) => ({ id: r.id, event: { type: r.type, data: r.data } as Handled }));
    const subjectIds = [...new Set(events.map((e) => subjectOf(e.event)).filter((id) => id !== null))];
    const subjects = await loadSubjects(tx, subjectIds);
    const changedSubjects = new Set<string>();
    const rows = new Map<string, Row>();
    const open = new Map<string, Row>();
    for (const row of await loadOpen(tx, subjectIds)) {
      rows.set(row.id, row);
      open.set(`${row.kind}:${row.subjectId}`, row);
    }
    // Rows loaded are written back only if they changed.
    const changed = new Set<string>();
    const reads: Events['NotificationsRead'][] = [];
    const users = new Set<string>();

    const add = (row: Row) => {
      rows.set(row.id, row);
      changed.add(row.id);
      users.add(row.userId);
      if (row.readAt === null && GATHERING.includes(row.kind as NotificationKind))
        open.set(`${row.kind}:${row.subjectId}`, row);
    };
    const fresh = (
      eventId: string,
      kind: NotificationKind,
      userId: string,
      at: string,
      more: Partial<Row> = {},
      tag = '',
    ): Row => ({
      id: uuidv5(`${eventId}${tag}`, NOTIFICATION_ID_NAMESPACE),
      userId,
      kind,
      subjectId: null,
      ticketId: null,
      count: 1,
      data: {},
      createdAt: new Date(at),
      updatedAt: new Date(at),
      readAt: null,
      ...more,
    });
    /** The unread row of this kind and subject grows, or a new one opens. */
    const gather = (
      eventId: string,
      kind: NotificationKind,
      userId: string,
      subjectId: string,
      at: string,
      more: Partial<Row> = {},
    ) => {
      const row = open.get(`${kind}:${subjectId}`);
      if (!row) return add(fresh(eventId, kind, userId, at, { subjectId, ...more }));
      const when = new Date(at);
      // What the latest of its events tells (who claimed) replaces what an earlier one did.
      const latest = when >= row.updatedAt;
      add({
        ...row,
        count: row.count + 1,
        updatedAt: latest ? when : row.updatedAt,
        data: latest && more.data ? { ...row.data, ...more.data } : row.data,
      });
    };

    for (const { id, event } of events) {
      switch (event.type) {
        case 'TicketDistributed': {
          const { distributionId, userId, ticketId, maxClicks } = event.data;
          subjects.set(distributionId, { id: distributionId, userId, ticketId, maxClicks });
          changedSubjects.add(distributionId);
          break;
        }
        case 'LinkUpdated': {
          const subject = subjects.get(event.data.distributionId);
          if (!subject) break;
          subjects.set(subject.id, { ...subject, maxClicks: event.data.settings.maxClicks });
          changedSubjects.add(subject.id);
          break;
        }
        case 'WalletAccountLinked': {
          const { accountId, userId } = event.data;
          subjects.set(accountId, { id: accountId, userId, ticketId: null, maxClicks: null });
          changedSubjects.add(accountId);
          break;
        }
        case 'LinkClicked': {
          const { distributionId, ticketId, userId, n, at, name, device } = event.data;
          const claimedBy = { name: name ?? null, device: device ?? null };
          gather(id, 'link_claimed', userId, distributionId, at, { ticketId, data: { claimedBy } });
          const maxClicks = subjects.get(distributionId)?.maxClicks ?? null;
          if (maxClicks !== null && n === maxClicks) {
            add(
              fresh(
                id,
                'link_limit_reached',
                userId,
                at,
                { subjectId: distributionId, ticketId, data: { maxClicks } },
                '/limit',
              ),
            );
          }
          break;
        }
        case 'LinkExpiryNear': {
          const { distributionId, ticketId, userId, expiresAt, at } = event.data;
          add(fresh(id, 'link_expiring', userId, at, { subjectId: distributionId, ticketId, data: { expiresAt } }));
          break;
        }
        case 'LinkPinGuessed': {
          // One per burst of wrong PINs (the decider records one per window); its count is the wrong PINs.
          const { distributionId, ticketId, userId, failures, at } = event.data;
          add(fresh(id, 'link_pin_guessed', userId, at, { subjectId: distributionId, ticketId, count: failures }));
          break;
        }
        case 'WalletAccountAuthFailed': {
          const subject = subjects.get(event.data.accountId);
          if (subject) gather(id, 'account_reauth', subject.userId, subject.id, event.data.at);
          break;
        }
        case 'WalletAccountReauthenticated': {
          // Signed in again: what asked for it is done.
          const row = open.get(`account_reauth:${event.data.accountId}`);
          if (row) {
            open.delete(`account_reauth:${event.data.accountId}`);
            add({ ...row, readAt: new Date(event.data.at) });
          }
          break;
        }
        case 'CreditsPurchased': {
          const { userId, amount, amountPence, at } = event.data;
          add(fresh(id, 'credits_added', userId, at, { data: { credits: amount, amountPence } }));
          break;
        }
        case 'NotificationsRead': {
          const { userId, ids, at } = event.data;
          const named = ids === null ? null : new Set(ids);
          for (const row of rows.values()) {
            if (row.userId !== userId || row.readAt !== null || (named && !named.has(row.id))) continue;
            if (open.get(`${row.kind}:${row.subjectId}`)?.id === row.id) open.delete(`${row.kind}:${row.subjectId}`);
            add({ ...row, readAt: new Date(at) });
          }
          reads.push(event.data);
          users.add(userId);
          break;
        }
      }
    }

    if (changedSubjects.size > 0) {
      const values = [...changedSubjects].map((id) => subjects.get(id)!);
      await tx
        .insert(notificationSubjects)
        .values(values)
        .onConflictDoUpdate({
          target: notificationSubjects.id,
          set: { maxClicks: sql`excluded.max_clicks` },
        });
    }
    // The reads of rows made before this batch (those made in it are read in memory, and written below).
    for (const read of reads) {
      await tx
        .update(notifications)
        .set({ readAt: new Date(read.at) })
        .where(
          and(
            eq(notifications.userId, read.userId),
            isNull(notifications.readAt),
            read.ids === null ? undefined : inArray(notifications.id, read.ids),
          ),
        );
    }
    const written = [...changed].map((id) => rows.get(id)!);
    for (let i = 0; i < written.length; i += 1000) {
      await tx
        .insert(notifications)
        .values(written.slice(i, i + 1000))
        .onConflictDoUpdate({
          target: notifications.id,
          set: {
            count: sql`excluded.count`,
            updatedAt: sql`excluded.updated_at`,
            readAt: sql`excluded.read_at`,
            data: sql`excluded.data`,
          },
        });
    }
    if (users.size === 0) return;
    const unread = await tx
      .select({ userId: notifications.userId, unread: count() })
      .from(notifications)
      .where(and(inArray(notifications.userId, [...users]), isNull(notifications.readAt)))
      .groupBy(notifications.userId);
    const byUser = new Map(unread.map((u) => [u.userId, Number(u.unread)]));
    for (const userId of users) {
      push({
        to: { userId },
        event: 'notifications.updated',
        payload: { user_id: userId, unread: byUser.get(userId) ?? 0 },
      });
    }
  },
});

async function loadSubjects(tx: Tx, ids: readonly string[]): Promise<Map<string, Subject>> {
  if (ids.length === 0) return new Map();
  const found = await tx
    .select()
    .from(notificationSubjects)
    .where(inArray(notificationSubjects.id, [...ids]));
  return new Map(found.map((s) => [s.id, s]));
}

/** The unread rows that gather (claims, re-authentication) of these subjects, locked against an operator's retry. */
async function loadOpen(tx: Tx, subjectIds: readonly string[]): Promise<Row[]> {
  if (subjectIds.length === 0) return [];
  return tx
    .select()
    .from(notifications)
    .where(
      and(
        inArray(notifications.subjectId, [...subjectIds]),
        isNull(notifications.readAt),
        inArray(notifications.kind, [...GATHERING]),
      ),
    )
    .for('update');
}
