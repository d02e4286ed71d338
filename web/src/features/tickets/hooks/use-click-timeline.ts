import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import type { ClickTimelineResponse } from '@seatlink/contracts';
import { useThrottledValue } from '../../../lib/use-throttled-value';
import { getClickTimeline } from '../api/get-click-timeline';

/** A link's timeline is read again at most this often while its clicks keep changing (pushes come a few a second). */
export const TIMELINE_REFRESH_MS = 2_000;

/** Reads of a timeline whose minutes do not yet add up to its count, before it is left as it is. */
export const MAX_CATCH_UPS = 5;

/**
 * The timeline is projected from the click events a moment after the counter moves: while it says fewer clicks than
 * the count it was asked for, or its minutes add up to less than its own count, it is read again every
 * TIMELINE_REFRESH_MS, MAX_CATCH_UPS times at most.
 */
export function catchUpInterval(
  timeline: ClickTimelineResponse | undefined,
  reads: number,
  asked: number,
): number | false {
  if (!timeline || reads > MAX_CATCH_UPS) return false;
  const drawn = timeline.minutes.reduce((n, m) => n + m.clicks, 0);
  return timeline.clicks < asked || drawn < timeline.clicks ? TIMELINE_REFRESH_MS : false;
}

const timelineKey = (distributionId: string) => ['tickets', 'click-timeline', distributionId] as const;

/** The newest timeline of a link read so far, if any. */
function lastRead(client: QueryClient, distributionId: string): ClickTimelineResponse | undefined {
  let newest: ClickTimelineResponse | undefined;
  for (const [, timeline] of client.getQueriesData<ClickTimelineResponse>({ queryKey: timelineKey(distributionId) })) {
    if (timeline && (!newest || timeline.clicks > newest.clicks)) newest = timeline;
  }
  return newest;
}

/**
 * One link's timeline as read at a click count (a new count is a new read). A failed read keeps the last timeline
 * drawn; the next change of the count asks again.
 */
export const clickTimelineQuery = (distributionId: string, clicks: number) =>
  queryOptions({
    queryKey: [...timelineKey(distributionId), clicks],
    queryFn: async ({ client }): Promise<ClickTimelineResponse> => {
      try {
        return await getClickTimeline(distributionId);
      } catch {
        return (
          lastRead(client, distributionId) ?? {
            distribution_id: distributionId,
            label: null,
            clicks,
            max_clicks: null,
            minutes: [],
            opens: 0,
            open_minutes: [],
          }
        );
      }
    },
    staleTime: Infinity,
    // The last timeline of the same link stays drawn while a newer count is read.
    placeholderData: (previous: ClickTimelineResponse | undefined, previousQuery) =>
      previousQuery?.queryKey[2] === distributionId ? previous : undefined,
    refetchInterval: (query) => catchUpInterval(query.state.data, query.state.dataUpdateCount, clicks),
  });

/**
 * A link's click timeline (GET /v1/distributions/{id}/clicks), read again when its live count changes, at most once
 * per TIMELINE_REFRESH_MS.
 */
export function useClickTimeline(distributionId: string, clicks: number): ClickTimelineResponse | undefined {
  const asked = useThrottledValue(clicks, TIMELINE_REFRESH_MS);
  return useQuery(clickTimelineQuery(distributionId, asked)).data;
}
