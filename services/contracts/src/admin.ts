import { z } from 'zod';
import { userSchema } from './auth.js';
import { maybePendingShape } from './identity.js';
import { named, schema } from './schema.js';
import { plainText } from './text.js';

/** The {id} of /v1/admin/users/{id}/... */
export const userIdParamSchema = schema(() => z.uuid({ error: 'User id must be a UUID' }));

/** The longest reason an admin may give for setting a user's credits. */
export const MAX_CREDITS_REASON_LENGTH = 200;

const creditsAmount = (label: string) =>
  z
    .number({ error: `${label} must be a number` })
    .int(`${label} must be a whole number`)
    .min(0, `${label} must be 0 or more`)
    .max(1_000_000_000, `${label} must be at most 1000000000`);

/**
 * Body of PUT /v1/admin/users/{id}/credits (docs/reference.md "Admin form rules"): the new balance, why (required: it
 * is kept in the user's audit log), and optionally the balance the admin saw: when the balance is no longer that,
 * nothing is set (409 BALANCE_CHANGED), so the "from" the admin confirmed is the "from" recorded.
 */
export const setCreditsRequestSchema = schema(() =>
  z.object({
    credits: creditsAmount('credits'),
    reason: plainText('Reason', MAX_CREDITS_REASON_LENGTH),
    expected_balance: creditsAmount('expected_balance').optional(),
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

/** Where a page of a list stands (docs/reference.md "Request and answer bodies"). */
export const paginationSchema = schema(() =>
  named('Pagination', z.object({ page: z.int().min(1), limit: z.int().min(1), total: z.int().min(0) })),
);
export type Pagination = z.infer<typeof paginationSchema>;

/** GET /v1/admin/users: a page of the users. */
export const adminUsersResponseSchema = schema(() =>
  named(
    'AdminUsersResponse',
    z.object({
      users: z.array(userSchema),
      pagination: paginationSchema,
      /** Users created in the last 30 days (docs/reference.md "Limits and constants"). */
      new_users_last_30_days: z.int().min(0),
    }),
  ),
);
export type AdminUsersResponse = z.infer<typeof adminUsersResponseSchema>;

/** PUT /v1/admin/users/{id}/credits: the user with the balance the command set. */
export const setCreditsResponseSchema = schema(() =>
  named('SetCreditsResponse', z.object({ message: z.string(), user: userSchema, ...maybePendingShape })),
);
export type SetCreditsResponse = z.infer<typeof setCreditsResponseSchema>;

/** Admin users page size (docs/reference.md "Limits and constants"). */
export const ADMIN_USERS_PAGE_SIZE = 10;
