import { routes, type SetCreditsRequest, type SetCreditsResponse } from '@seatlink/contracts';
import { callApi } from '../../../lib/api-client';

/**
 * PUT /v1/admin/users/{id}/credits {credits, reason, expected_balance}: sets a user's balance, saying why; answers with
 * the updated user.
 */
export function setUserCredits(userId: string, body: SetCreditsRequest): Promise<SetCreditsResponse> {
  return callApi(routes.adminSetUserCredits, { params: { id: userId }, body });
}
