import { routes, type TicketsResponse } from '@seatlink/contracts';
import { callApi } from '../../../lib/api-client';

/** GET /v1/tickets: the user's tickets with their live links (the account page shows each ticket's link state). */
export function listTickets(): Promise<TicketsResponse> {
  return callApi(routes.listTickets);
}
