import type { Ticket, TicketsResponse } from '@seatlink/contracts';
import { param, type SQL, sql } from 'drizzle-orm';
import { type Db, type Executor, queryRows } from '../../../infra/db/database.js';
import { changedFrom, readModelBound, versionFloor, versionOf } from '../../../infra/db/read-model-versions.js';
import { LINK_VERSIONED_TABLES, liveLinksByTicket, ticketsWithLinkChanges } from '../../distribution/index.js';
import { type TicketRow, toTicket } from './accounts.queries.js';

/** This module's versioned tables a ticket's answer is read from (the link's are the distribution module's). */
const TICKET_VERSIONED_TABLES = ['tickets', 'removed_tickets', 'pass_groups', 'wallet_accounts'] as const;

/** Where a page ends: the last ticket's first-seen time (microseconds since 1970, exact) and id. */
export interface TicketsCursor {
  seenUs: string;
  id: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The opaque `next_cursor`: base64url of the page's last ticket's place in first-seen order. */
export const encodeCursor = (cursor: TicketsCursor) =>
  Buffer.from(`${cursor.seenUs}.${cursor.id}`, 'utf8').toString('base64url');

/** The place a `next_cursor` stands for; null when it is not one this server made. */
export function decodeCursor(text: string): TicketsCursor | null {
  const decoded = Buffer.from(text, 'base64url').toString('utf8');
  const [seenUs, id, ...rest] = decoded.split('.');
  // A first-seen time is never before 1970; 18 digits stay within what the database's timestamps hold.
  if (rest.length > 0 || !seenUs || !id || !/^[0-9]{1,18}$/.test(seenUs) || !UUID.test(id)) return null;
  return { seenUs, id };
}

export interface TicketsAsked {
  limit?: number;
  /** The decoded `after`. */
  after?: TicketsCursor;
  since?: string;
}

/** A row of the answer: the ticket and its place in first-seen order. */
type PagedRow = TicketRow & { seen_us: string };

/**
 * A user's tickets as GET /v1/tickets answers them (services/contracts tickets.ts): every ticket, a page of them
 * (first-seen order: created_at, id), or those changed since a version, with the version the answer stands at.
 *
 * The bound is read first, in a statement of its own; then one read-only transaction at repeatable read answers from
 * one snapshot taken after it: the tickets and their links agree, and a rebuild is either all before the answer (its
 * floor is seen) or all after it (its floor is above the version answered, so the next `since` is answered in full).
 */
export async function ticketsAnswer(
  db: Db,
  userId: string,
  asked: TicketsAsked,
  dashboardUrl: string,
): Promise<TicketsResponse> {
  const bound = await readModelBound(db);
  return db.transaction(
    async (tx) => {
      let changed: SQL | null = null;
      let since: { removed: string[]; full: boolean } | null = null;
      if (asked.since !== undefined) {
        const floor = await versionFloor(tx, [...TICKET_VERSIONED_TABLES, ...LINK_VERSIONED_TABLES]);
        const from = changedFrom(asked.since, bound, floor);
        since = { removed: [], full: from === null };
        if (from !== null) {
          changed = await changedTickets(tx, userId, from);
          since.removed = await removedTickets(tx, userId, from);
        }
      }
      const rows = await ticketRows(tx, userId, changed, asked);
      const page = asked.limit !== undefined ? rows.slice(0, asked.limit) : rows;
      const live = await liveLinksByTicket(
        tx,
        page.map((r) => r.id),
      );
      const tickets: Ticket[] = page.map((r) => toTicket(r, live.get(r.id), dashboardUrl));
      const last = page.at(-1);
      return {
        tickets,
        version: versionOf(bound),
        ...(asked.limit !== undefined
          ? {
              next_cursor:
                rows.length > asked.limit && last ? encodeCursor({ seenUs: last.seen_us, id: last.id }) : null,
            }
          : {}),
        ...(since ? { removed: since.removed, full: since.full } : {}),
      };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}

/**
 * The user's tickets changed in a transaction at or after `fromXid`, as a set to select from: the ticket's row, its
 * account's row (its e-mail; a row that came after the ticket's), its pass's holders (its duplicate status) or its link.
 */
async function changedTickets(tx: Executor, userId: string, fromXid: bigint): Promise<SQL> {
  const from = fromXid.toString();
  const byLink = await ticketsWithLinkChanges(tx, userId, fromXid);
  return sql`(
    select t.id from tickets t where t.user_id = ${userId} and t.version >= ${from}::bigint
    union
    select t.id from pass_groups g join tickets t on t.dedupe_key = g.dedupe_key
    where g.version >= ${from}::bigint and t.user_id = ${userId}
    union
    select t.id from wallet_accounts a join tickets t on t.account_id = a.id
    where a.user_id = ${userId} and a.version >= ${from}::bigint
    union
    select unnest(${param(byLink)}::uuid[])
  )`;
}

/** The user's tickets that left in a transaction at or after `fromXid` and are not back. */
async function removedTickets(tx: Executor, userId: string, fromXid: bigint): Promise<string[]> {
  const rows = await queryRows<{ ticket_id: string }>(
    tx,
    sql`select r.ticket_id from removed_tickets r
        where r.user_id = ${userId} and r.version >= ${fromXid.toString()}::bigint
          and not exists (select 1 from tickets t where t.id = r.ticket_id)
        order by r.ticket_id`,
  );
  return rows.map((r) => r.ticket_id);
}

/** The tickets of the answer in first-seen order: after the cursor, and one more than the page to tell a next one. */
function ticketRows(tx: Executor, userId: string, changed: SQL | null, asked: TicketsAsked): Promise<PagedRow[]> {
  const after = asked.after
    ? sql`and (t.created_at, t.id) > (timestamptz 'epoch' + ${asked.after.seenUs}::bigint * interval '1 microsecond',
                                     ${asked.after.id}::uuid)`
    : sql``;
  return queryRows<PagedRow>(
    tx,
    sql`select t.id, t.account_id, t.user_id, t.title, t.subtitle, t.logo, t.venue_name, t.section, t.row, t.seat,
               t.next_game, t.next_game_date, t.created_at, a.email as account_email, g.master_ticket_id,
               (extract(epoch from t.created_at) * 1000000)::bigint::text as seen_us
        from tickets t
        join wallet_accounts a on a.id = t.account_id
        left join pass_groups g on g.dedupe_key = t.dedupe_key
        where t.user_id = ${userId} ${changed ? sql`and t.id in ${changed}` : sql``} ${after}
        order by t.created_at, t.id
        ${asked.limit !== undefined ? sql`limit ${asked.limit + 1}` : sql``}`,
  );
}
