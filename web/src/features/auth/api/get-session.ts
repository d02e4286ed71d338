import { routes, type SessionResponse } from '@seatlink/contracts';
import { callApi } from '../../../lib/api-client';

/** GET /v1/session: who is signed in — the user, or null for a visitor (200 either way, never 401). */
export function getSession(): Promise<SessionResponse> {
  return callApi(routes.session);
}
