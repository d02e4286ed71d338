import { routes, type DuplicateGroupsResponse } from '@seatlink/contracts';
import { callApi } from '../../../lib/api-client';

/** GET /v1/admin/tickets/duplicates: the passes held by more than one ticket, as master and duplicates. */
export function listDuplicateTickets(): Promise<DuplicateGroupsResponse> {
  return callApi(routes.adminDuplicateTickets);
}
