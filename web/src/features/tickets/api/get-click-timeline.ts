import { routes, type ClickTimelineResponse } from '@seatlink/contracts';
import { callApi } from '../../../lib/api-client';

/** GET /v1/distributions/{id}/clicks: a link's counted clicks per minute, oldest first. */
export function getClickTimeline(distributionId: string): Promise<ClickTimelineResponse> {
  return callApi(routes.distributionClicks, { params: { id: distributionId } });
}
