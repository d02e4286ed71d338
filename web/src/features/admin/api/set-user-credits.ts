import type { SetCreditsRequest, SetCreditsResponse } from '@seatlink/contracts';
import { request } from '../../../lib/api-client';

/** PUT /v1/admin/users/{id}/credits {credits}: sets a user's balance; answers with the updated user. */
export function setUserCredits(userId: string, body: SetCreditsRequest): Promise<SetCreditsResponse> {
  return request<SetCreditsResponse>(`/v1/admin/users/${encodeURIComponent(userId)}/credits`, {
    method: 'PUT',
    body,
  });
}
