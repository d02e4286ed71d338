import { routes, type AuditsResponse } from '@seatlink/contracts';
import { callApi, type QueryValues } from '../../../lib/api-client';

/** GET /v1/admin/users/{id}/audits?{query}: one page of a user's audit log, newest first. */
export function listUserAudits(userId: string, query: QueryValues): Promise<AuditsResponse> {
  return callApi(routes.adminUserAudits, { params: { id: userId }, query });
}
