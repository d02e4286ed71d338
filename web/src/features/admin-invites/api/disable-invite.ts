import { routes, type MessageResponse } from '@seatlink/contracts';
import { callApi } from '../../../lib/api-client';

/** POST /v1/admin/invites/{code}/disable: addressed by the code value, not the id (docs/reference.md "API calls"). */
export function disableInvite(code: string): Promise<MessageResponse> {
  return callApi(routes.adminDisableInvite, { params: { code } });
}
