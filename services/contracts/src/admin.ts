import { z } from 'zod';
import type { User } from './auth.js';
import type { MaybePending } from './identity.js';
import { schema } from './schema.js';

/** The {id} of /v1/admin/users/{id}/... */
export const userIdParamSchema = schema(() => z.uuid({ error: 'User id must be a UUID' }));

/** Body of PUT /v1/admin/users/{id}/credits (SPEC.md §5 "Credits form"). */
export const setCreditsRequestSchema = schema(() =>
  z.object({
    credits: z
      .number({ error: 'credits must be a number' })
      .int('credits must be a whole number')
      .min(0, 'credits must be 0 or more')
      .max(1_000_000_000, 'credits must be at most 1000000000'),
  }),
);
export type SetCreditsRequest = z.infer<typeof setCreditsRequestSchema>;

export const pageQuerySchema = schema(() =>
  z.object({
    page: z.coerce.number().int().min(1).max(100_000).default(1),
    limit: z.coerce.number().int().min(1).max(100).default(10),
  }),
);
export type PageQuery = z.infer<typeof pageQuerySchema>;

export interface Pagination {
  page: number;
  limit: number;
  total: number;
}

export interface AdminUsersResponse {
  users: User[];
  pagination: Pagination;
  /** Users created in the last 30 days (SPEC.md §9). */
  new_users_last_30_days: number;
}

export interface SetCreditsResponse extends MaybePending {
  message: string;
  user: User;
}

/** Admin users page size (SPEC.md §9). */
export const ADMIN_USERS_PAGE_SIZE = 10;
