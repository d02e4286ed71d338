import type { User } from '@seatlink/contracts';
import { request } from '../../../lib/api-client';

/** GET /v1/me: the signed-in user itself (not wrapped), 401 for a visitor. */
export function getMe(): Promise<User> {
  return request<User>('/v1/me');
}
