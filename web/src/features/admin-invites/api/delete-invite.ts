import { routes, type MessageResponse } from '@seatlink/contracts';
import { callApi } from '../../../lib/api-client';

/** DELETE /v1/admin/invites/{id} */
export function deleteInvite(id: string): Promise<MessageResponse> {
  return callApi(routes.adminDeleteInvite, { params: { id } });
}
