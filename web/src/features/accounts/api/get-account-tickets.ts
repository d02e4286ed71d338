import { routes, type AccountTicketsResponse } from '@seatlink/contracts';
import { callApi } from '../../../lib/api-client';

/**
 * GET /accounts/{id}/tickets (no v1 prefix, docs/reference.md "API calls"): the account and its tickets; 404
 * 'Account not found'.
 */
export function getAccountTickets(id: string): Promise<AccountTicketsResponse> {
  return callApi(routes.accountTickets, { params: { id } });
}
