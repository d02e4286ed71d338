import { routes, type InviteCodesResponse } from '@seatlink/contracts';
import { callApi } from '../../../lib/api-client';

/** GET /v1/admin/invites */
export function listInvites(): Promise<InviteCodesResponse> {
  return callApi(routes.adminListInvites);
}
