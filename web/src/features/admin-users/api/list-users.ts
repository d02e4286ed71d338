import { routes, type AdminUsersResponse } from '@seatlink/contracts';
import { callApi } from '../../../lib/api-client';

/** GET /v1/admin/users?page&limit: one page of users plus the 30-day new-users figure. */
export function listUsers(page: number, limit: number): Promise<AdminUsersResponse> {
  return callApi(routes.adminListUsers, { query: { page, limit } });
}
