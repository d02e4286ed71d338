import { sql } from 'drizzle-orm';
import { asSubscription, type Subscription } from '../../../infra/subscriptions/subscription.js';
import type { LinkClicked, LinkOpened } from '../distribution.events.js';
import { linkActivityDays, linkOpenMinutes, linkOpenTotals } from '../distribution.schema.js';

/** Rows written per statement. */
const CHUNK = 500;

const minuteOf = (at: string) => {
  const date = new Date(at);
  date.setUTCSeconds(0, 0);
  return date;
};
const dayOf = (at: string) => at.slice(0, 10);

/**
 * The opens of links and the activity of their holders, from LinkOpened (one per link and device) and LinkClicked:
 * `link_open_minutes` (a link's first opens per minute, beside its click timeline), `link_open_totals` (a link's
 * devices and its last first open) and `link_activity_days` (a user's opens and claims per day, UTC: GET
 * /v1/links/activity). Set-based: a batch of events becomes one upsert of sums per table. Additive only, so a rebuild
 * (emptied tables, the feed replayed) gives the same rows.
 */
export const linkOpensProjection: Subscription = asSubscription({
  name: 'link-opens',
  kind: 'projection',
  tables: ['link_open_minutes', 'link_open_totals', 'link_activity_days'],
  handles: ['LinkOpened', 'LinkClicked'],
  // The same sums made inside the database (distribution.routines.ts), the events not read into the process.
  inDatabase: 'seatlink_project_link_opens',
  async apply(events, { tx }) {
    const minutes = new Map<string, { distributionId: string; minute: Date; opens: number }>();
    const totals = new Map<string, { distributionId: string; userId: string; opens: number; lastOpenAt: Date }>();
    const days = new Map<string, { userId: string; day: string; opens: number; claims: number }>();
    const dayRow = (userId: string, day: string) => {
      const key = `${userId}|${day}`;
      let row = days.get(key);
      if (!row) days.set(key, (row = { userId, day, opens: 0, claims: 0 }));
      return row;
    };
    for (const recorded of events) {
      if (recorded.type === 'LinkClicked') {
        const { data } = recorded as unknown as LinkClicked;
        dayRow(data.userId, dayOf(data.at)).claims += 1;
        continue;
      }
      const { data } = recorded as unknown as LinkOpened;
      const minute = minuteOf(data.at);
      const minuteKey = `${data.distributionId}|${minute.toISOString()}`;
      const sum = minutes.get(minuteKey) ?? { distributionId: data.distributionId, minute, opens: 0 };
      sum.opens += 1;
      minutes.set(minuteKey, sum);
      const at = new Date(data.at);
      const total = totals.get(data.distributionId) ?? {
        distributionId: data.distributionId,
        userId: data.userId,
        opens: 0,
        lastOpenAt: at,
      };
      total.opens += 1;
      if (at > total.lastOpenAt) total.lastOpenAt = at;
      totals.set(data.distributionId, total);
      dayRow(data.userId, dayOf(data.at)).opens += 1;
    }
    const minuteRows = [...minutes.values()];
    for (let i = 0; i < minuteRows.length; i += CHUNK) {
      await tx
        .insert(linkOpenMinutes)
        .values(minuteRows.slice(i, i + CHUNK))
        .onConflictDoUpdate({
          target: [linkOpenMinutes.distributionId, linkOpenMinutes.minute],
          set: { opens: sql`${linkOpenMinutes.opens} + excluded.opens` },
        });
    }
    const totalRows = [...totals.values()];
    for (let i = 0; i < totalRows.length; i += CHUNK) {
      await tx
        .insert(linkOpenTotals)
        .values(totalRows.slice(i, i + CHUNK))
        .onConflictDoUpdate({
          target: linkOpenTotals.distributionId,
          set: {
            opens: sql`${linkOpenTotals.opens} + excluded.opens`,
            lastOpenAt: sql`greatest(${linkOpenTotals.lastOpenAt}, excluded.last_open_at)`,
          },
        });
    }
    const dayRows = [...days.values()];
    for (let i = 0; i < dayRows.length; i += CHUNK) {
      await tx
        .insert(linkActivityDays)
        .values(dayRows.slice(i, i + CHUNK))
        .onConflictDoUpdate({
          target: [linkActivityDays.userId, linkActivityDays.day],
          set: {
            opens: sql`${linkActivityDays.opens} + excluded.opens`,
            claims: sql`${linkActivityDays.claims} + excluded.claims`,
          },
        });
    }
  },
});
