import { routes, type TicketsResponse } from '@seatlink/contracts';
import { callApi } from '../../../lib/api-client';

/** GET /v1/tickets: the signed-in user's tickets. */
export function listTickets(): Promise<TicketsResponse> {
  return callApi(routes.listTickets);
}
