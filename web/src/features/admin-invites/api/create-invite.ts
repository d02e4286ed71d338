import { routes, type CreateInviteRequest, type InviteCodeResponse } from '@seatlink/contracts';
import { callApi } from '../../../lib/api-client';

/** POST /v1/admin/invites {max_uses, expires_at (YYYY-MM-DD)} */
export function createInvite(body: CreateInviteRequest): Promise<InviteCodeResponse> {
  return callApi(routes.adminCreateInvite, { body });
}
