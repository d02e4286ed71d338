import type { ClickTimelineResponse } from '@seatlink/contracts';
import { desc, eq } from 'drizzle-orm';
import type { Executor } from '../../../infra/db/database.js';
import { linkClickMinutes, links } from '../distribution.schema.js';

/** Minutes of a timeline answered at most. */
const TIMELINE_MINUTES = 1440;

/** A link's clicks per minute, for its owner (or an admin); null when the link is not theirs to see. */
export async function clickTimeline(
  db: Executor,
  distributionId: string,
  viewer: { id: string; isAdmin: boolean },
): Promise<ClickTimelineResponse | null> {
  const [link] = await db
    .select({ userId: links.userId, clicks: links.clicks, maxClicks: links.maxClicks })
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
  return {
    distribution_id: distributionId,
    clicks: link.clicks,
    max_clicks: link.maxClicks,
    minutes: minutes.reverse().map((m) => ({ minute: m.minute.toISOString(), clicks: m.clicks })),
  };
}
