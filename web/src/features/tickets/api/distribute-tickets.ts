import { routes, type DistributeRequest, type DistributeResponse } from '@seatlink/contracts';
import { callApi } from '../../../lib/api-client';

/**
 * POST /v1/tickets/distribute: a link for each ticket that can have one. `idempotencyKey` is one per submit, the same
 * for its retries. When no ticket got a link the call fails (402, 404 or 409) with `failed` and `balance` in its body.
 */
export function distributeTickets(body: DistributeRequest, idempotencyKey: string): Promise<DistributeResponse> {
  return callApi(routes.distributeTickets, { body, idempotencyKey });
}
