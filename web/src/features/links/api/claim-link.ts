import { routes, type ClaimRequest, type ClaimResponse } from '@seatlink/contracts';
import { callApi } from '../../../lib/api-client';
import { deviceId } from '../device-id';

/**
 * POST /v1/links/{code}/claim (public): counts one click and answers the wallet's "save pass" address; 410 when the
 * link expired, reached its limit or was withdrawn (code LINK_EXPIRED, LIMIT_REACHED, LINK_RECALLED). A link with a PIN
 * needs it (`pin`): 401 PIN_REQUIRED without it, PIN_INVALID when wrong, 429 when this device or address tried too
 * many (Retry-After). The PIN goes with this browser's device id, so others' wrong PINs do not slow it. The recipient's
 * name (`name`), when they give one, is shown to the link's owner.
 */
export function claimLink(
  code: string,
  idempotencyKey: string,
  pin: string | null = null,
  name: string | null = null,
): Promise<ClaimResponse> {
  const device = pin === null ? null : deviceId();
  const given: ClaimRequest = {
    ...(pin === null ? {} : { pin, ...(device ? { device_id: device } : {}) }),
    ...(name ? { name } : {}),
  };
  const body: ClaimRequest | undefined = Object.keys(given).length > 0 ? given : undefined;
  return callApi(routes.claimLink, { params: { code }, idempotencyKey, ...(body ? { body } : {}) });
}
