import { routes, type RecallResponse } from '@seatlink/contracts';
import { callApi } from '../../../lib/api-client';

/** POST /v1/distributions/{id}/recall (no body): the link stops working; 404 and 409 ALREADY_RECALLED refuse. */
export function recallDistribution(distributionId: string, idempotencyKey: string): Promise<RecallResponse> {
  return callApi(routes.recallDistribution, { params: { id: distributionId }, idempotencyKey });
}
