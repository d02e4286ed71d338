import { routes, type ClaimRequest, type ClaimResponse } from '@seatlink/contracts';
import { callApi } from '../../../lib/api-client';

/**
 * POST /v1/links/{code}/claim (public): counts one click and answers the wallet's "save pass" address; 410 when the
 * link expired, reached its limit or was withdrawn (code LINK_EXPIRED, LIMIT_REACHED, LINK_RECALLED). A link with a PIN
 * needs it (`pin`): 401 PIN_REQUIRED without it, PIN_INVALID when wrong, 423 PIN_LOCKED after too many wrong ones. The
 * recipient's name (`name`), when they give one, is shown to the link's owner.
 */
export function claimLink(
  code: string,
  idempotencyKey: string,
  pin: string | null = null,
  name: string | null = null,
): Promise<ClaimResponse> {
  const given: ClaimRequest = { ...(pin === null ? {} : { pin }), ...(name ? { name } : {}) };
  const body: ClaimRequest | undefined = Object.keys(given).length > 0 ? given : undefined;
  return callApi(routes.claimLink, { params: { code }, idempotencyKey, ...(body ? { body } : {}) });
}
