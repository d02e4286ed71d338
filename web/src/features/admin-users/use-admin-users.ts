import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ADMIN_USERS_PAGE_SIZE, type Pagination, type User } from '@seatlink/contracts';
import { querySlice } from '../../lib/query-slice';
import {
  adminUsersQuery,
  type CreditsChange,
  resetPassword,
  setCredits,
  toggleBan,
  USERS_FETCH_FAILED,
} from './admin-users.queries';

const NO_USERS: User[] = [];

/**
 * One page of the admin users list (docs/reference.md "Screen state": users, pagination, loading, error). While another
 * page loads, the last one stays; a page that cannot be read says why ('Failed to fetch users').
 */
export function useAdminUsers(page: number) {
  const query = useQuery(adminUsersQuery(page));
  const { loading, error } = querySlice(
    { ...query, data: query.isPlaceholderData ? undefined : query.data },
    USERS_FETCH_FAILED,
  );
  const pagination: Pagination = query.data?.pagination ?? { page, limit: ADMIN_USERS_PAGE_SIZE, total: 0 };
  return {
    users: query.data?.users ?? NO_USERS,
    pagination,
    newUsersLast30Days: query.data?.new_users_last_30_days ?? 0,
    loading,
    error,
  };
}

export function useSetCredits() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, ...change }: CreditsChange & { userId: string }) => setCredits(client, userId, change),
  }).mutateAsync;
}

export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword }).mutateAsync;
}

export function useToggleBan() {
  const client = useQueryClient();
  return useMutation({ mutationFn: (userId: string) => toggleBan(client, userId) }).mutateAsync;
}
