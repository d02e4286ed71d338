import { routes, type LinkActivityResponse } from '@seatlink/contracts';
import { callApi } from '../../../lib/api-client';

/** GET /v1/links/activity: the user's opens and claims by day, links opened not claimed, links expiring unclaimed. */
export function getLinkActivity(days: number): Promise<LinkActivityResponse> {
  return callApi(routes.linkActivity, { query: { days } });
}
