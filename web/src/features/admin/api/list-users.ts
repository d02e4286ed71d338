import type { AdminUsersResponse } from '@seatlink/contracts';
import { request } from '../../../lib/api-client';

/** GET /v1/admin/users?page&limit: one page of users plus the 30-day new-users figure. */
export function listUsers(page: number, limit: number): Promise<AdminUsersResponse> {
  const query = new URLSearchParams({ page: String(page), limit: String(limit) });
  return request<AdminUsersResponse>(`/v1/admin/users?${query.toString()}`);
}
