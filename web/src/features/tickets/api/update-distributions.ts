import { type BulkUpdateRequest, type BulkUpdateResponse, routes } from '@seatlink/contracts';
import { callApi } from '../../../lib/api-client';

/** PATCH /v1/distributions: the same changes to many links, each on its own; those refused are listed with why. */
export function updateDistributions(body: BulkUpdateRequest, idempotencyKey: string): Promise<BulkUpdateResponse> {
  return callApi(routes.updateDistributions, { body, idempotencyKey });
}
