import { keepPreviousData, queryOptions, type QueryClient } from '@tanstack/react-query';
import { ADMIN_USERS_PAGE_SIZE, type AdminUsersResponse, type User } from '@seatlink/contracts';
import { errorCode, errorMessage } from '../../lib/api-client';
import { listUsers } from './api/list-users';
import { resetUserPassword } from './api/reset-user-password';
import { setUserCredits } from './api/set-user-credits';
import { toggleUserBan } from './api/toggle-user-ban';

/** The admin users part of the admin slice (docs/reference.md "Screen state"): one query per page of the list. */
export const ADMIN_USERS_KEY = ['admin', 'users'] as const;

export const USERS_FETCH_FAILED = 'Failed to fetch users';

export const adminUsersQuery = (page: number) =>
  queryOptions({
    queryKey: [...ADMIN_USERS_KEY, page],
    queryFn: () => listUsers(page, ADMIN_USERS_PAGE_SIZE),
    // Another page keeps the rows on screen until it arrives.
    placeholderData: keepPreviousData,
  });

export type SetCreditsResult =
  | { ok: true; user: User; message: string }
  /** `balanceChanged`: the balance moved since the admin looked (409 BALANCE_CHANGED); the list is read again. */
  | { ok: false; message: string; balanceChanged?: boolean };

/** A credits set as the confirmation dialog sends it: the new balance, why, and the balance the admin saw. */
export interface CreditsChange {
  credits: number;
  reason: string;
  expectedBalance: number;
}
export type ToggleBanResult = { ok: true; user: User; message: string } | { ok: false; message: string };
export type ActionResult = { ok: boolean; message: string };

/** The user the server answered with takes its row's place in every page held. */
function replaceRow(client: QueryClient, user: User) {
  client.setQueriesData<AdminUsersResponse>({ queryKey: ADMIN_USERS_KEY }, (page) =>
    page ? { ...page, users: page.users.map((row) => (row.id === user.id ? user : row)) } : page,
  );
}

/**
 * PUT credits with the reason, only while the balance is the one the admin confirmed; on success the row is replaced
 * by the user the server answered with. When the balance moved meanwhile the list is read again, so the dialog shows
 * the balance as it is now.
 */
export async function setCredits(
  client: QueryClient,
  userId: string,
  change: CreditsChange,
): Promise<SetCreditsResult> {
  try {
    const { user, message } = await setUserCredits(userId, {
      credits: change.credits,
      reason: change.reason.trim(),
      expected_balance: change.expectedBalance,
    });
    replaceRow(client, user);
    return { ok: true, user, message };
  } catch (error) {
    const balanceChanged = errorCode(error) === 'BALANCE_CHANGED';
    if (balanceChanged) await client.invalidateQueries({ queryKey: ADMIN_USERS_KEY });
    return {
      ok: false,
      message: errorMessage(error, 'Failed to update user credits'),
      ...(balanceChanged ? { balanceChanged } : {}),
    };
  }
}

/** POST reset-password: e-mails the user a reset link. Failure: the server's message or 'Failed to send password reset'. */
export async function resetPassword(userId: string): Promise<ActionResult> {
  try {
    const { message } = await resetUserPassword(userId);
    return { ok: true, message };
  } catch (error) {
    return { ok: false, message: errorMessage(error, 'Failed to send password reset') };
  }
}

/** POST toggle-ban; on success the row is replaced by the user the server answered with. */
export async function toggleBan(client: QueryClient, userId: string): Promise<ToggleBanResult> {
  try {
    const { user, message } = await toggleUserBan(userId);
    replaceRow(client, user);
    return { ok: true, user, message };
  } catch (error) {
    return { ok: false, message: errorMessage(error, 'Failed to toggle user ban status') };
  }
}
