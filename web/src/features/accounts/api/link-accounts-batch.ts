import { routes, type BatchLinkRequest, type BatchLinkResponse } from '@seatlink/contracts';
import { callApi } from '../../../lib/api-client';

/** POST /v1/accounts/batch {accounts}: links each account on its own; every entry answers an account or an error. */
export function linkAccountsBatch(body: BatchLinkRequest): Promise<BatchLinkResponse> {
  return callApi(routes.linkAccountsBatch, { body });
}
