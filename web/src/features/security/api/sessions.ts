import { routes, type EndSessionsResponse, type SessionsResponse } from '@seatlink/contracts';
import { callApi } from '../../../lib/api-client';

/** GET /v1/me/sessions: the user's signed-in sessions, this one first. */
export function getSessions(): Promise<SessionsResponse> {
  return callApi(routes.listSessions);
}

/** DELETE /v1/me/sessions/{id}: signs that session out (its pages are signed out at once). */
export function endSession(id: string): Promise<EndSessionsResponse> {
  return callApi(routes.endSession, { params: { id } });
}

/** DELETE /v1/me/sessions: signs every other session out. */
export function endOtherSessions(): Promise<EndSessionsResponse> {
  return callApi(routes.endOtherSessions);
}
