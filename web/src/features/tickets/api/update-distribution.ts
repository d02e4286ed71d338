import { routes, type UpdateDistributionRequest, type UpdateDistributionResponse } from '@seatlink/contracts';
import { callApi } from '../../../lib/api-client';

/**
 * PATCH /v1/distributions/{id}: the fields given change (null removes), the others stay; 404 for a link not the
 * caller's, 409 for a recalled one or a limit below its clicks.
 */
export function updateDistribution(
  distributionId: string,
  body: UpdateDistributionRequest,
  idempotencyKey: string,
): Promise<UpdateDistributionResponse> {
  return callApi(routes.updateDistribution, { params: { id: distributionId }, body, idempotencyKey });
}
