import { type BulkRecallRequest, type BulkRecallResponse, routes } from '@seatlink/contracts';
import { callApi } from '../../../lib/api-client';

/** POST /v1/distributions/recall: many links recalled, each on its own; those refused are listed with why. */
export function recallDistributions(body: BulkRecallRequest, idempotencyKey: string): Promise<BulkRecallResponse> {
  return callApi(routes.recallDistributions, { body, idempotencyKey });
}
