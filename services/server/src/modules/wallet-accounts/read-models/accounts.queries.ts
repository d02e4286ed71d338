import {
  type Account,
  type AccountTicket,
  type AdminAccount,
  type AdminTicket,
  type DuplicateGroup,
  type DuplicateTicketView,
  seatInfoCombined,
  type Ticket,
} from '@seatlink/contracts';
import { param, sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../../infra/db/database.js';
import { claimantOf, type LiveLink, liveLinksByTicket, linkUrl } from '../../distribution/index.js';

interface AccountRow {
  id: string;
  user_id: string;
  email: string;
  first_name: string;
  last_name: string;
  display_name: string;
  in_error_state: boolean;
  last_error: string | null;
  sync_error: string | null;
  skipped_passes: number;
  created_at: Date | string;
  updated_at: Date | string;
  last_synced_at: Date | string | null;
  syncing: boolean;
  ticket_count: number;
  owner_email?: string;
}

const iso = (v: Date | string) => new Date(v).toISOString();

function toAccount(r: AccountRow, distributedCount: number): Account {
  return {
    id: r.id,
    user_id: r.user_id,
    first_name: r.first_name,
    last_name: r.last_name,
    name: r.display_name,
    email: r.email,
    last_synced_at: r.last_synced_at ? iso(r.last_synced_at) : null,
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
    in_error_state: r.in_error_state,
    last_error: r.last_error,
    sync_error: r.sync_error,
    skipped_passes: Number(r.skipped_passes),
    ticket_count: Number(r.ticket_count),
    distributed_count: distributedCount,
    syncing: r.syncing,
  };
}

const ACCOUNTS = sql`
  select a.id, a.user_id, a.email, a.first_name, a.last_name, a.display_name, a.in_error_state, a.last_error,
         a.sync_error, a.skipped_passes, a.created_at, a.updated_at, s.last_synced_at, coalesce(s.running_until > now(), false) as syncing,
         (select count(*)::int from tickets t where t.account_id = a.id) as ticket_count,
         (select u.email from users u where u.id = a.user_id) as owner_email
  from wallet_accounts a left join wallet_sync_state s on s.account_id = a.id`;

/** Per account, its tickets with a live link, from its tickets (id and account) and the live links by ticket. */
function distributedCounts(
  tickets: ReadonlyArray<{ id: string; account_id: string }>,
  live: ReadonlyMap<string, LiveLink>,
): Map<string, number> {
  const counts = new Map<string, number>();
  for (const t of tickets) if (live.has(t.id)) counts.set(t.account_id, (counts.get(t.account_id) ?? 0) + 1);
  return counts;
}

/** The accounts with their distributed counts: two queries (their tickets, the tickets' live links) for them all. */
async function toAccounts(db: Executor, rows: readonly AccountRow[]): Promise<Account[]> {
  if (rows.length === 0) return [];
  const tickets = await queryRows<{ id: string; account_id: string }>(
    db,
    sql`select t.id, t.account_id from tickets t where t.account_id = any(${param(rows.map((r) => r.id))}::uuid[])`,
  );
  const counts = distributedCounts(
    tickets,
    await liveLinksByTicket(
      db,
      tickets.map((t) => t.id),
    ),
  );
  return rows.map((r) => toAccount(r, counts.get(r.id) ?? 0));
}

/** A user's accounts (all accounts when `userId` is null), oldest first. */
export async function listAccounts(db: Executor, userId: string | null): Promise<Account[]> {
  const rows = await queryRows<AccountRow>(
    db,
    userId === null
      ? sql`${ACCOUNTS} order by a.created_at, a.id`
      : sql`${ACCOUNTS} where a.user_id = ${userId} order by a.created_at, a.id`,
  );
  return toAccounts(db, rows);
}

/** One account of the user's; null when missing or another user's (the same answer). */
export async function findAccount(db: Executor, accountId: string, userId: string | null): Promise<Account | null> {
  const [row] = await queryRows<AccountRow>(db, sql`${ACCOUNTS} where a.id = ${accountId}`);
  if (!row || (userId !== null && row.user_id !== userId)) return null;
  return (await toAccounts(db, [row]))[0]!;
}

export interface TicketRow {
  id: string;
  account_id: string;
  user_id: string;
  title: string;
  subtitle: string | null;
  logo: string | null;
  venue_name: string | null;
  section: string | null;
  row: string | null;
  seat: string | null;
  next_game: string | null;
  next_game_date: string | null;
  created_at: Date | string;
  account_email: string;
  master_ticket_id: string | null;
  user_email?: string;
}

const TICKETS = sql`
  select t.id, t.account_id, t.user_id, t.title, t.subtitle, t.logo, t.venue_name, t.section, t.row, t.seat,
         t.next_game, t.next_game_date, t.created_at, a.email as account_email, g.master_ticket_id,
         (select u.email from users u where u.id = t.user_id) as user_email
  from tickets t
  join wallet_accounts a on a.id = t.account_id
  left join pass_groups g on g.dedupe_key = t.dedupe_key`;

/** A ticket as its owner's views show it, with its live link (the public address `<dashboard>/l/<code>`). */
export function toTicket(r: TicketRow, link: LiveLink | undefined, dashboardUrl: string): Ticket {
  const seat = { section: r.section, row: r.row, seat: r.seat };
  return {
    id: r.id,
    account_id: r.account_id,
    account_email: r.account_email,
    title: r.title,
    subtitle: r.subtitle,
    logo: r.logo,
    venue_name: r.venue_name,
    seat: { ...seat, seat_info_combined: seatInfoCombined(seat) },
    metadata: { next_game: r.next_game, next_game_date: r.next_game_date },
    is_duplicate: r.master_ticket_id !== null && r.master_ticket_id !== r.id,
    is_distributed: link !== undefined,
    distribution: link
      ? {
          distribution_id: link.distributionId,
          id: link.distributionId,
          link: linkUrl(dashboardUrl, link.code),
          clicks: link.clicks,
          max_clicks: link.maxClicks,
          expiry: link.expiresAt ? iso(link.expiresAt) : null,
          label: link.label,
          has_pin: link.hasPin,
          // Links are locked no more (PINs are slowed per device and address): kept for clients built before.
          pin_locked: false,
          claimed_by: claimantOf(link),
          recipient:
            link.recipientName === null && link.recipientEmail === null
              ? null
              : { name: link.recipientName, email: link.recipientEmail },
        }
      : null,
    created_at: iso(r.created_at),
  };
}

/** Some of a user's tickets as distribution sees them: owner, account and whether a duplicate. */
export async function ticketsForDistribution(
  db: Executor,
  userId: string,
  ticketIds: readonly string[],
): Promise<Map<string, { ownerId: string; accountId: string; isDuplicate: boolean }>> {
  if (ticketIds.length === 0) return new Map();
  const rows = await queryRows<{ id: string; user_id: string; account_id: string; master_ticket_id: string | null }>(
    db,
    sql`select t.id, t.user_id, t.account_id, g.master_ticket_id
        from tickets t left join pass_groups g on g.dedupe_key = t.dedupe_key
        where t.user_id = ${userId} and t.id = any(${param([...ticketIds])}::uuid[])`,
  );
  return new Map(
    rows.map((r) => [
      r.id,
      {
        ownerId: r.user_id,
        accountId: r.account_id,
        isDuplicate: r.master_ticket_id !== null && r.master_ticket_id !== r.id,
      },
    ]),
  );
}

/** Every ticket, with its owner (admins). */
export async function listAllTickets(db: Executor, dashboardUrl: string): Promise<AdminTicket[]> {
  const [rows, live] = await Promise.all([
    queryRows<TicketRow>(db, sql`${TICKETS} order by t.created_at, t.id`),
    liveLinksByTicket(db),
  ]);
  return rows.map((r) => ({
    ...toTicket(r, live.get(r.id), dashboardUrl),
    user: { id: r.user_id, email: r.user_email ?? '' },
  }));
}

function toAccountTicket(r: TicketRow, live: ReadonlyMap<string, LiveLink>): AccountTicket {
  return {
    id: r.id,
    event_name: r.title,
    section: r.section,
    row: r.row,
    seat: r.seat,
    is_distributed: live.has(r.id),
  };
}

/** The tickets of one account (docs/reference.md "Wallet account"). */
export async function accountTickets(db: Executor, accountId: string): Promise<AccountTicket[]> {
  const rows = await queryRows<TicketRow>(
    db,
    sql`${TICKETS} where t.account_id = ${accountId} order by t.created_at, t.id`,
  );
  const live = await liveLinksByTicket(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => toAccountTicket(r, live));
}

/** Every account with its owner and tickets (admins). */
export async function listAdminAccounts(db: Executor): Promise<AdminAccount[]> {
  const [accountRows, ticketRows, live] = await Promise.all([
    queryRows<AccountRow>(db, sql`${ACCOUNTS} order by a.created_at, a.id`),
    queryRows<TicketRow>(db, sql`${TICKETS} order by t.created_at, t.id`),
    liveLinksByTicket(db),
  ]);
  const counts = distributedCounts(ticketRows, live);
  const byAccount = new Map<string, AccountTicket[]>();
  for (const t of ticketRows) {
    byAccount.set(t.account_id, [...(byAccount.get(t.account_id) ?? []), toAccountTicket(t, live)]);
  }
  return accountRows.map((r) => ({
    ...toAccount(r, counts.get(r.id) ?? 0),
    user: { email: r.owner_email ?? '' },
    tickets: byAccount.get(r.id) ?? [],
  }));
}

/** The passes held by two or more tickets: the master (first to claim) and its duplicates. */
export async function duplicateGroups(db: Executor): Promise<DuplicateGroup[]> {
  const rows = await queryRows<TicketRow & { dedupe_key: string; position: number }>(
    db,
    sql`select t.id, t.account_id, t.user_id, t.title, t.subtitle, t.logo, t.venue_name, t.section, t.row, t.seat,
               t.next_game, t.next_game_date, t.created_at, a.email as account_email, g.master_ticket_id,
               u.email as user_email, g.dedupe_key, h.position::int as position
        from pass_groups g
        cross join lateral jsonb_array_elements_text(g.holders) with ordinality as h(ticket_id, position)
        join tickets t on t.id = h.ticket_id::uuid
        join wallet_accounts a on a.id = t.account_id
        left join users u on u.id = t.user_id
        where jsonb_array_length(g.holders) > 1
        order by g.dedupe_key, h.position`,
  );
  const groups = new Map<string, DuplicateTicketView[]>();
  const view = (r: TicketRow): DuplicateTicketView => ({
    id: r.id,
    title: r.title,
    venue_name: r.venue_name,
    seat_info: seatInfoCombined(r),
    created_at: iso(r.created_at),
    account: { email: r.account_email },
    user: { email: r.user_email ?? '' },
  });
  for (const r of rows) groups.set(r.dedupe_key, [...(groups.get(r.dedupe_key) ?? []), view(r)]);
  return [...groups.values()]
    .filter((members) => members.length > 1)
    .map(([master, ...duplicates]) => ({ master_ticket: master!, duplicate_tickets: duplicates }));
}

/** The names the notification centre gives: each ticket's event (its title), each account's e-mail, of one user's. */
export async function ticketAndAccountNames(
  db: Executor,
  userId: string,
  ticketIds: readonly string[],
  accountIds: readonly string[],
): Promise<{ tickets: Map<string, string>; accounts: Map<string, string> }> {
  const tickets = ticketIds.length
    ? await queryRows<{ id: string; title: string }>(
        db,
        sql`select id, title from tickets where user_id = ${userId} and id = any(${param([...ticketIds])}::uuid[])`,
      )
    : [];
  const accounts = accountIds.length
    ? await queryRows<{ id: string; email: string }>(
        db,
        sql`select id, email from wallet_accounts where user_id = ${userId} and id = any(${param([...accountIds])}::uuid[])`,
      )
    : [];
  return {
    tickets: new Map(tickets.map((t) => [t.id, t.title])),
    accounts: new Map(accounts.map((a) => [a.id, a.email])),
  };
}

/** A ticket's event (its title) and seat ("Section 112, Row F, Seat 7"; null: none), as a recipient's e-mail names it. */
export async function ticketTitleAndSeat(
  db: Executor,
  ticketId: string,
): Promise<{ title: string; seat: string | null } | null> {
  const [row] = await queryRows<{ title: string; section: string | null; row: string | null; seat: string | null }>(
    db,
    sql`select title, section, row, seat from tickets where id = ${ticketId}`,
  );
  return row ? { title: row.title, seat: seatInfoCombined(row) } : null;
}
