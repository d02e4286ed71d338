import { sql } from 'drizzle-orm';
import type { RecordedEvent } from '../../../infra/event-store/event-store.port.js';
import { rowProjection } from '../../../infra/subscriptions/row-projection.js';
import {
  asSubscription,
  type Subscription,
  type SubscriptionContext,
} from '../../../infra/subscriptions/subscription.js';
import type { DistributionEvent, LinkClicked, TicketDistributed } from '../distribution.events.js';
import { links } from '../distribution.schema.js';
import { linkFacts } from '../link-counters.js';

/** A link's row as it is made: not recalled, no clicks yet. */
function newLinkRow(data: TicketDistributed['data']): typeof links.$inferSelect {
  return {
    ...linkFacts(data),
    label: data.label ?? null,
    hasPin: Boolean(data.pinHash),
    recipientName: data.recipient?.name ?? null,
    recipientEmail: data.recipient?.email ?? null,
    expiryWarnedFor: null,
    expiredFor: null,
    recalledAt: null,
    clicks: 0,
    lastClickAt: null,
    lastClaimName: null,
    lastClaimDevice: null,
    createdAt: new Date(data.at),
    // Stamped by the database as the row is written (read-model-versions.ts).
    version: 0,
  };
}

/** The events that make or change a row of `links` (its clicks aside): the in-database fast path stops at each. */
export const LINK_ROW_EVENTS = [
  'TicketDistributed',
  'TicketRecalled',
  'LinkUpdated',
  'LinkExpiryNear',
  'LinkExpired',
] as const satisfies ReadonlyArray<DistributionEvent['type']>;

/** The rows of `links`: made by TicketDistributed, changed by LinkUpdated, marked by TicketRecalled. */
const linkRows = rowProjection<typeof links, DistributionEvent>({
  name: 'links',
  table: links,
  key: 'distributionId',
  handles: LINK_ROW_EVENTS,
  keyOf: (event) => ((LINK_ROW_EVENTS as readonly string[]).includes(event.type) ? event.data.distributionId : null),
  evolve(row, event) {
    switch (event.type) {
      case 'TicketDistributed': {
        return row ?? newLinkRow(event.data);
      }
      case 'TicketRecalled':
        return row ? { ...row, recalledAt: row.recalledAt ?? new Date(event.data.at) } : null;
      case 'LinkUpdated': {
        if (!row) return null;
        const { expiresAt, maxClicks, label } = event.data.settings;
        // An edit that says nothing of a PIN (recorded before links had them) leaves it.
        const pin = 'pinHash' in event.data.settings ? { hasPin: event.data.settings.pinHash !== null } : {};
        // Nor does one recorded before links named recipients.
        const recipient =
          'recipient' in event.data.settings
            ? {
                recipientName: event.data.settings.recipient?.name ?? null,
                recipientEmail: event.data.settings.recipient?.email ?? null,
              }
            : {};
        return { ...row, expiresAt: expiresAt ? new Date(expiresAt) : null, maxClicks, label, ...pin, ...recipient };
      }
      case 'LinkExpiryNear':
        return row ? { ...row, expiryWarnedFor: new Date(event.data.expiresAt) } : null;
      case 'LinkExpired':
        return row ? { ...row, expiredFor: new Date(event.data.expiresAt) } : null;
      default:
        return row;
    }
  },
  live: (after, before, events) => {
    const row = after ?? before;
    // Telling the owner an expiry is near, or recording it passed, changes nothing a screen shows.
    if (!row || events.every((e) => e.type === 'LinkExpiryNear' || e.type === 'LinkExpired')) return [];
    const payload = { user_id: row.userId, ticket_id: row.ticketId, distribution_id: row.distributionId };
    return [
      { to: { userId: row.userId }, event: 'distribution.updated', payload },
      { to: 'admins', event: 'distribution.updated', payload },
    ];
  },
});

/**
 * Raises each link's count to the highest click number recorded (its counter handed the numbers out, so the highest is
 * the count), never lowers it: clicks recorded out of order (two API processes) end at the same row. The claims count
 * on their own table (`link_counters`), so none waits for this.
 */
async function countClicks(events: readonly RecordedEvent[], { tx }: SubscriptionContext) {
  const highest = new Map<string, LinkClicked['data']>();
  for (const recorded of events) {
    const { data } = recorded as unknown as LinkClicked;
    const seen = highest.get(data.distributionId);
    if (!seen || data.n > seen.n) highest.set(data.distributionId, data);
  }
  if (highest.size === 0) return;
  const values = sql.join(
    [...highest.entries()].map(
      ([id, { n, at, name, device }]) =>
        sql`(${id}::uuid, ${n}::integer, ${at}::timestamptz, ${name ?? null}::text, ${device ?? null}::text)`,
    ),
    sql`, `,
  );
  // The last click's claimant with its count (the claim writes the same in its transaction; a rebuild gives it too).
  await tx.execute(sql`
    update links l set clicks = v.n, last_click_at = greatest(l.last_click_at, v.at), last_claim_name = v.name,
                       last_claim_device = v.device
    from (values ${values}) as v(distribution_id, n, at, name, device)
    where l.distribution_id = v.distribution_id and l.clicks < v.n`);
}

/**
 * `links`: every link made, recalled or not, with its click count, built from the events alone (live and in a rebuild
 * alike): TicketDistributed makes the row, LinkUpdated changes its settings, TicketRecalled marks it, LinkClicked
 * raises its count. The owner's views
 * read it; claims do not (they decide on `link_counters`).
 */
export const linksProjection: Subscription = asSubscription({
  name: 'links',
  kind: 'projection',
  tables: ['links'],
  handles: [...LINK_ROW_EVENTS, 'LinkClicked'],
  // Runs of clicks are counted inside the database (distribution.routines.ts), without being read into the process.
  inDatabase: 'seatlink_project_link_clicks',
  async apply(events, ctx) {
    const rows = events.filter((e) => e.type !== 'LinkClicked');
    if (rows.length > 0) await linkRows.apply(rows, ctx);
    await countClicks(
      events.filter((e) => e.type === 'LinkClicked'),
      ctx,
    );
  },
  async repair(event, ctx) {
    if (event.type === 'LinkClicked') await countClicks([event], ctx);
    else await linkRows.repair!(event, ctx);
  },
});
