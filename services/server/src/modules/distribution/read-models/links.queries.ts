import {
  ACTIVITY_LIST_SIZE,
  type ClickTimelineResponse,
  EXPIRING_WITHIN_HOURS,
  type LinkActivityResponse,
  type LinkClaimant,
  type LinkRecipient,
} from '@seatlink/contracts';
import { and, desc, eq, gte, isNull, param, sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../../infra/db/database.js';
import { linkClickMinutes, linkOpenMinutes, linkOpenTotals, links } from '../distribution.schema.js';

/** Minutes of a timeline answered at most. */
const TIMELINE_MINUTES = 1440;

/** A link's clicks per minute, for its owner (or an admin); null when the link is not theirs to see. */
export async function clickTimeline(
  db: Executor,
  distributionId: string,
  viewer: { id: string; isAdmin: boolean },
): Promise<ClickTimelineResponse | null> {
  const [link] = await db
    .select({ userId: links.userId, clicks: links.clicks, maxClicks: links.maxClicks, label: links.label })
    .from(links)
    .where(eq(links.distributionId, distributionId))
    .limit(1);
  if (!link || (link.userId !== viewer.id && !viewer.isAdmin)) return null;
  const minutes = await db
    .select({ minute: linkClickMinutes.minute, clicks: linkClickMinutes.clicks })
    .from(linkClickMinutes)
    .where(eq(linkClickMinutes.distributionId, distributionId))
    .orderBy(desc(linkClickMinutes.minute))
    .limit(TIMELINE_MINUTES);
  const openMinutes = await db
    .select({ minute: linkOpenMinutes.minute, opens: linkOpenMinutes.opens })
    .from(linkOpenMinutes)
    .where(eq(linkOpenMinutes.distributionId, distributionId))
    .orderBy(desc(linkOpenMinutes.minute))
    .limit(TIMELINE_MINUTES);
  const [opened] = await db
    .select({ opens: linkOpenTotals.opens })
    .from(linkOpenTotals)
    .where(eq(linkOpenTotals.distributionId, distributionId));
  return {
    distribution_id: distributionId,
    label: link.label,
    clicks: link.clicks,
    max_clicks: link.maxClicks,
    minutes: minutes.reverse().map((m) => ({ minute: m.minute.toISOString(), clicks: m.clicks })),
    opens: opened?.opens ?? 0,
    open_minutes: openMinutes.reverse().map((m) => ({ minute: m.minute.toISOString(), opens: m.opens })),
  };
}

/** A ticket's live link (not recalled), as its owner's views show it. */
export interface LiveLink {
  distributionId: string;
  ticketId: string;
  code: string;
  /** The clicks counted (the claim that counts one writes it here, in its transaction). */
  clicks: number;
  maxClicks: number | null;
  expiresAt: Date | null;
  label: string | null;
  hasPin: boolean;
  recipientName: string | null;
  recipientEmail: string | null;
  lastClickAt: Date | null;
  /** Who made the last click: the name they gave, their device (either may be unknown). */
  lastClaimName: string | null;
  lastClaimDevice: string | null;
}

/** Who made a link's last click, as the owner's views show it (null before the first). */
export function claimantOf(link: {
  lastClickAt: Date | string | null;
  lastClaimName: string | null;
  lastClaimDevice: string | null;
}): LinkClaimant | null {
  if (link.lastClickAt === null) return null;
  return { name: link.lastClaimName, device: link.lastClaimDevice, at: new Date(link.lastClickAt).toISOString() };
}

/** Tickets asked about per query (one array parameter). */
const TICKETS_PER_QUERY = 10_000;

/**
 * The live links of these tickets, by ticket id (a ticket without one is absent): one query per 10,000 tickets. Without
 * ticket ids, every live link (the admins' lists of every ticket).
 */
export async function liveLinksByTicket(db: Executor, ticketIds?: readonly string[]): Promise<Map<string, LiveLink>> {
  const found = new Map<string, LiveLink>();
  const columns = {
    distributionId: links.distributionId,
    ticketId: links.ticketId,
    code: links.code,
    clicks: links.clicks,
    maxClicks: links.maxClicks,
    expiresAt: links.expiresAt,
    label: links.label,
    hasPin: links.hasPin,
    recipientName: links.recipientName,
    recipientEmail: links.recipientEmail,
    lastClickAt: links.lastClickAt,
    lastClaimName: links.lastClaimName,
    lastClaimDevice: links.lastClaimDevice,
  };
  const chunks: Array<readonly string[] | null> = [];
  if (ticketIds === undefined) chunks.push(null);
  else
    for (let i = 0; i < ticketIds.length; i += TICKETS_PER_QUERY)
      chunks.push(ticketIds.slice(i, i + TICKETS_PER_QUERY));
  for (const chunk of chunks) {
    const rows = await db
      .select(columns)
      .from(links)
      .where(
        chunk === null
          ? isNull(links.recalledAt)
          : and(isNull(links.recalledAt), sql`${links.ticketId} = any(${param([...chunk])}::uuid[])`),
      );
    for (const row of rows) found.set(row.ticketId, row);
  }
  return found;
}

/** The versioned tables behind a ticket's link (their floors bound what `ticketsWithLinkChanges` can tell). */
export const LINK_VERSIONED_TABLES: readonly string[] = ['links'];

/**
 * The user's tickets whose link changed (made, edited, recalled, clicked) in a transaction at or after `fromXid`: their links'
 * rows stamped since (infra/db/read-model-versions.ts).
 */
export async function ticketsWithLinkChanges(db: Executor, userId: string, fromXid: bigint): Promise<string[]> {
  const rows = await db
    .selectDistinct({ ticketId: links.ticketId })
    .from(links)
    .where(and(eq(links.userId, userId), gte(links.version, sql`${fromXid.toString()}::bigint`)));
  return rows.map((r) => r.ticketId);
}

/** A link as its owner's export lists it. */
export interface ExportedLink {
  distributionId: string;
  ticketId: string;
  code: string;
  /** The ticket's title; null once the ticket has left the owner's wallets. */
  title: string | null;
  label: string | null;
  recipientName: string | null;
  recipientEmail: string | null;
  clicks: number;
  maxClicks: number | null;
  expiresAt: Date | null;
  createdAt: Date;
  lastClickAt: Date | null;
  lastClaimName: string | null;
  lastClaimDevice: string | null;
  recalledAt: Date | null;
}

interface ExportRow {
  distribution_id: string;
  ticket_id: string;
  code: string;
  title: string | null;
  label: string | null;
  recipient_name: string | null;
  recipient_email: string | null;
  clicks: number;
  max_clicks: number | null;
  expires_at: Date | string | null;
  created_at: Date | string;
  last_click_at: Date | string | null;
  last_claim_name: string | null;
  last_claim_device: string | null;
  recalled_at: Date | string | null;
}

/**
 * Every link a user made (recalled ones too), newest first, in batches (keyset pages on the time made and the id): the
 * rows of GET /v1/links/export.csv, at most `maxRows`.
 */
export async function* userLinkBatches(
  db: Executor,
  userId: string,
  batchSize: number,
  maxRows: number,
): AsyncGenerator<ExportedLink[]> {
  let after: { createdAt: Date; id: string } | null = null;
  let sent = 0;
  while (sent < maxRows) {
    const cursor: { createdAt: Date; id: string } | null = after;
    const rows: ExportRow[] = await queryRows<ExportRow>(
      db,
      sql`select l.distribution_id, l.ticket_id, l.code, t.title, l.label, l.recipient_name, l.recipient_email, l.clicks, l.max_clicks, l.expires_at,
                 l.created_at, l.last_click_at, l.last_claim_name, l.last_claim_device, l.recalled_at
          from links l left join tickets t on t.id = l.ticket_id
          where l.user_id = ${userId}
            ${cursor ? sql`and (l.created_at, l.distribution_id) < (${cursor.createdAt.toISOString()}::timestamptz, ${cursor.id}::uuid)` : sql``}
          order by l.created_at desc, l.distribution_id desc
          limit ${Math.min(batchSize, maxRows - sent)}`,
    );
    if (rows.length === 0) return;
    sent += rows.length;
    const date = (value: Date | string | null) => (value === null ? null : new Date(value));
    const batch: ExportedLink[] = rows.map((r) => ({
      distributionId: r.distribution_id,
      ticketId: r.ticket_id,
      code: r.code,
      title: r.title,
      label: r.label,
      recipientName: r.recipient_name,
      recipientEmail: r.recipient_email,
      clicks: Number(r.clicks),
      maxClicks: r.max_clicks,
      expiresAt: date(r.expires_at),
      createdAt: new Date(r.created_at),
      lastClickAt: date(r.last_click_at),
      lastClaimName: r.last_claim_name,
      lastClaimDevice: r.last_claim_device,
      recalledAt: date(r.recalled_at),
    }));
    const last: ExportedLink = batch[batch.length - 1]!;
    after = { createdAt: last.createdAt, id: last.distributionId };
    yield batch;
  }
}

/** Whom each of these links is for (its named recipient), by link id; a link for nobody named is left out. */
export async function linkRecipients(db: Executor, ids: readonly string[]): Promise<Map<string, LinkRecipient>> {
  if (ids.length === 0) return new Map();
  const rows = await queryRows<{ distribution_id: string; name: string | null; email: string | null }>(
    db,
    sql`select distribution_id, recipient_name as name, recipient_email as email from links
         where distribution_id = any(${param([...ids])}::uuid[])
           and (recipient_name is not null or recipient_email is not null)`,
  );
  return new Map(rows.map((r) => [r.distribution_id, { name: r.name, email: r.email }]));
}

/** The labels of one user's links (the notification centre names a link by its ticket and label). */
export async function linkLabels(db: Executor, userId: string, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await queryRows<{ distribution_id: string; label: string }>(
    db,
    sql`select distribution_id, label from links
         where user_id = ${userId} and label is not null and distribution_id = any(${param([...ids])}::uuid[])`,
  );
  return new Map(rows.map((r) => [r.distribution_id, r.label]));
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * GET /v1/links/activity for one user: opens and claims per day (UTC) over the last `days` days, every day present,
 * oldest first; their live links opened and never claimed (most opened first); their live links without a claim
 * expiring within EXPIRING_WITHIN_HOURS (soonest first). Three indexed reads, whatever the number of links:
 * `link_activity_days` by user and day, `link_open_totals` by user, `links_user_unclaimed_expiry_idx`.
 */
export async function linkActivity(
  db: Executor,
  userId: string,
  days: number,
  now: Date,
): Promise<LinkActivityResponse> {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const dayKeys = Array.from({ length: days }, (_, i) =>
    new Date(today - (days - 1 - i) * DAY_MS).toISOString().slice(0, 10),
  );
  const [perDay, opened, expiring] = await Promise.all([
    queryRows<{ day: string; opens: number; claims: number }>(
      db,
      sql`select to_char(day, 'YYYY-MM-DD') as day, opens, claims from link_activity_days
          where user_id = ${userId} and day >= ${dayKeys[0]}::date`,
    ),
    queryRows<{
      distribution_id: string;
      ticket_id: string;
      title: string | null;
      label: string | null;
      opens: number;
      last_open_at: Date | string;
    }>(
      db,
      sql`select o.distribution_id, l.ticket_id, t.title, l.label, o.opens, o.last_open_at
          from link_open_totals o
          join links l on l.distribution_id = o.distribution_id
          left join tickets t on t.id = l.ticket_id
          where o.user_id = ${userId} and l.recalled_at is null and l.clicks = 0
          order by o.opens desc, o.last_open_at desc, o.distribution_id
          limit ${ACTIVITY_LIST_SIZE}`,
    ),
    queryRows<{
      distribution_id: string;
      ticket_id: string;
      title: string | null;
      label: string | null;
      expires_at: Date | string;
    }>(
      db,
      sql`select l.distribution_id, l.ticket_id, t.title, l.label, l.expires_at
          from links l left join tickets t on t.id = l.ticket_id
          where l.user_id = ${userId} and l.recalled_at is null and l.clicks = 0 and l.expires_at is not null
            and l.expires_at > ${now.toISOString()}::timestamptz
            and l.expires_at <= ${new Date(now.getTime() + EXPIRING_WITHIN_HOURS * 60 * 60 * 1000).toISOString()}::timestamptz
          order by l.expires_at, l.distribution_id
          limit ${ACTIVITY_LIST_SIZE}`,
    ),
  ]);
  const byDay = new Map(perDay.map((r) => [r.day, r]));
  return {
    days: dayKeys.map((day) => ({
      day,
      opens: Number(byDay.get(day)?.opens ?? 0),
      claims: Number(byDay.get(day)?.claims ?? 0),
    })),
    opened_not_claimed: opened.map((r) => ({
      distribution_id: r.distribution_id,
      ticket_id: r.ticket_id,
      title: r.title,
      label: r.label,
      opens: Number(r.opens),
      last_open_at: new Date(r.last_open_at).toISOString(),
    })),
    expiring_unclaimed: expiring.map((r) => ({
      distribution_id: r.distribution_id,
      ticket_id: r.ticket_id,
      title: r.title,
      label: r.label,
      expires_at: new Date(r.expires_at).toISOString(),
    })),
  };
}
