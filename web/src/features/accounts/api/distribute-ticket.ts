import { routes, type DistributeRequest, type DistributeResponse } from '@seatlink/contracts';
import { callApi } from '../../../lib/api-client';

/** POST /v1/tickets/distribute for one ticket of the account (an Idempotency-Key per submit, kept for its retries). */
export function distributeTicket(body: DistributeRequest, idempotencyKey: string): Promise<DistributeResponse> {
  return callApi(routes.distributeTickets, { body, idempotencyKey });
}
