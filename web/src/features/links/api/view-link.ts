import { routes, type PublicLink } from '@seatlink/contracts';
import { callApi } from '../../../lib/api-client';

/** GET /v1/links/{code} (public): what the link holds and whether it still works; never counts a click. */
export function viewLink(code: string): Promise<PublicLink> {
  return callApi(routes.viewLink, { params: { code } });
}
