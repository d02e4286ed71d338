import { create } from 'zustand';
import { ADMIN_USERS_PAGE_SIZE, type Pagination, type User } from '@seatlink/contracts';
import { errorMessage } from '../../lib/api-client';
import { listUsers } from './api/list-users';
import { resetUserPassword } from './api/reset-user-password';
import { setUserCredits } from './api/set-user-credits';
import { toggleUserBan } from './api/toggle-user-ban';

/** The admin users part of the admin slice (SPEC.md §3). */
export interface AdminUsersState {
  users: User[];
  pagination: Pagination;
  newUsersLast30Days: number;
  loading: boolean;
  error: string | null;
}

export type SetCreditsResult = { ok: true; user: User; message: string } | { ok: false; message: string };
export type ToggleBanResult = { ok: true; user: User; message: string } | { ok: false; message: string };
export type ActionResult = { ok: boolean; message: string };

export interface AdminUsersActions {
  /** Loads one page; `silent` keeps the current rows on screen instead of showing the loading state. */
  fetchUsers(page: number, options?: { silent?: boolean }): Promise<void>;
  /** PUT credits; on success the row is replaced by the user the server answered with. */
  setCredits(userId: string, credits: number): Promise<SetCreditsResult>;
  /** POST reset-password: e-mails the user a reset link. Failure: the server's message or 'Failed to send password reset'. */
  resetPassword(userId: string): Promise<ActionResult>;
  /** POST toggle-ban; on success the row is replaced by the user the server answered with. */
  toggleBan(userId: string): Promise<ToggleBanResult>;
}

export type AdminUsersStore = AdminUsersState & AdminUsersActions;

export const initialAdminUsersState: AdminUsersState = {
  users: [],
  pagination: { page: 1, limit: ADMIN_USERS_PAGE_SIZE, total: 0 },
  newUsersLast30Days: 0,
  loading: false,
  error: null,
};

export function createAdminUsersStore() {
  // Only the answer to the latest request is applied, so a slow earlier page cannot overwrite a later one.
  let latestRequest = 0;

  return create<AdminUsersStore>()((set, get) => ({
    ...initialAdminUsersState,

    async fetchUsers(page, { silent = false } = {}) {
      const requestId = ++latestRequest;
      if (!silent) set({ loading: true, error: null });
      try {
        const response = await listUsers(page, ADMIN_USERS_PAGE_SIZE);
        if (requestId !== latestRequest) return;
        set({
          users: response.users,
          pagination: response.pagination,
          newUsersLast30Days: response.new_users_last_30_days,
          loading: false,
          error: null,
        });
      } catch (error) {
        if (requestId !== latestRequest) return;
        set({ loading: false, error: errorMessage(error, 'Failed to fetch users') });
      }
    },

    async setCredits(userId, credits) {
      try {
        const { user, message } = await setUserCredits(userId, { credits });
        set({ users: get().users.map((row) => (row.id === user.id ? user : row)) });
        return { ok: true, user, message };
      } catch (error) {
        return { ok: false, message: errorMessage(error, 'Failed to update user credits') };
      }
    },

    async resetPassword(userId) {
      try {
        const { message } = await resetUserPassword(userId);
        return { ok: true, message };
      } catch (error) {
        return { ok: false, message: errorMessage(error, 'Failed to send password reset') };
      }
    },

    async toggleBan(userId) {
      try {
        const { user, message } = await toggleUserBan(userId);
        set({ users: get().users.map((row) => (row.id === user.id ? user : row)) });
        return { ok: true, user, message };
      } catch (error) {
        return { ok: false, message: errorMessage(error, 'Failed to toggle user ban status') };
      }
    },
  }));
}

export const useAdminUsersStore = createAdminUsersStore();
