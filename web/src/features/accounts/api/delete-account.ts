import { routes, type MessageResponse } from '@seatlink/contracts';
import { callApi } from '../../../lib/api-client';

/** DELETE /v1/accounts/{id} */
export function deleteAccount(id: string): Promise<MessageResponse> {
  return callApi(routes.deleteAccount, { params: { id } });
}
