import { routes, type SetCreditsRequest, type SetCreditsResponse } from '@seatlink/contracts';
import { callApi } from '../../../lib/api-client';

/** PUT /v1/admin/users/{id}/credits {credits}: sets a user's balance; answers with the updated user. */
export function setUserCredits(userId: string, body: SetCreditsRequest): Promise<SetCreditsResponse> {
  return callApi(routes.adminSetUserCredits, { params: { id: userId }, body });
}
