import { routes, type ClaimResponse } from '@seatlink/contracts';
import { callApi } from '../../../lib/api-client';

/**
 * POST /v1/links/{code}/claim (public): counts one click and answers the wallet's "save pass" address; 410 when the
 * link expired, reached its limit or was withdrawn (code LINK_EXPIRED, LIMIT_REACHED, LINK_RECALLED).
 */
export function claimLink(code: string, idempotencyKey: string): Promise<ClaimResponse> {
  return callApi(routes.claimLink, { params: { code }, idempotencyKey });
}
