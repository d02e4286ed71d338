import { sql } from 'drizzle-orm';
import { asSubscription, type Subscription } from '../../../infra/subscriptions/subscription.js';
import type { LinkClicked } from '../distribution.events.js';
import { linkClickMinutes } from '../distribution.schema.js';

const minuteOf = (at: string) => {
  const date = new Date(at);
  date.setUTCSeconds(0, 0);
  return date;
};

/**
 * `link_click_minutes`: each link's counted clicks per minute (the click timeline of a card). A subscription of its
 * own, set-based: a batch of clicks becomes one upsert of per-minute sums — inside the database where the events are
 * (`seatlink_project_link_click_minutes`, distribution.routines.ts: a popular link's clicks are not read into the
 * process),
 * here otherwise.
 */
export const linkClickTimelineProjection: Subscription = asSubscription({
  name: 'link-click-timeline',
  kind: 'projection',
  tables: ['link_click_minutes'],
  handles: ['LinkClicked'],
  inDatabase: 'seatlink_project_link_click_minutes',
  async apply(events, { tx }) {
    const sums = new Map<string, { distributionId: string; minute: Date; clicks: number }>();
    for (const recorded of events) {
      const { data } = recorded as unknown as LinkClicked;
      const minute = minuteOf(data.at);
      const key = `${data.distributionId}|${minute.toISOString()}`;
      const sum = sums.get(key) ?? { distributionId: data.distributionId, minute, clicks: 0 };
      sum.clicks += 1;
      sums.set(key, sum);
    }
    const rows = [...sums.values()];
    for (let i = 0; i < rows.length; i += 500) {
      await tx
        .insert(linkClickMinutes)
        .values(rows.slice(i, i + 500))
        .onConflictDoUpdate({
          target: [linkClickMinutes.distributionId, linkClickMinutes.minute],
          set: { clicks: sql`${linkClickMinutes.clicks} + excluded.clicks` },
        });
    }
  },
});
