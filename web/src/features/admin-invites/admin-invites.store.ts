import { create } from 'zustand';
import type { CreateInviteRequest, InviteCode } from '@seatlink/contracts';
import { errorMessage } from '../../lib/api-client';
import { createInvite } from './api/create-invite';
import { deleteInvite } from './api/delete-invite';
import { disableInvite } from './api/disable-invite';
import { listInvites } from './api/list-invites';

/** The invite codes part of the admin slice (SPEC.md §3). */
export interface AdminInvitesState {
  inviteCodes: InviteCode[];
  loading: boolean;
  error: string | null;
}

export type GenerateInviteResult = { ok: true; invite: InviteCode } | { ok: false; message: string };
export type InviteActionResult = { ok: boolean; message: string };

export interface AdminInvitesActions {
  /** GET the list; failure: the server's message or 'Failed to fetch invite codes'. */
  fetchInvites(): Promise<void>;
  /** POST a new code; it goes to the top of the list. Failure: server message or 'Failed to generate invite code'. */
  generate(body: CreateInviteRequest): Promise<GenerateInviteResult>;
  /** Active becomes Disabled (SPEC.md §4). Failure: server message or 'Failed to disable invite code'. */
  disable(invite: InviteCode): Promise<InviteActionResult>;
  /** Removes the code. Failure: server message or 'Failed to delete invite code'. */
  remove(invite: InviteCode): Promise<InviteActionResult>;
}

export type AdminInvitesStore = AdminInvitesState & AdminInvitesActions;

export const initialAdminInvitesState: AdminInvitesState = { inviteCodes: [], loading: false, error: null };

export function createAdminInvitesStore() {
  let latestRequest = 0;

  return create<AdminInvitesStore>()((set, get) => ({
    ...initialAdminInvitesState,

    async fetchInvites() {
      const requestId = ++latestRequest;
      set({ loading: true, error: null });
      try {
        const { invite_codes } = await listInvites();
        if (requestId === latestRequest) set({ inviteCodes: invite_codes, loading: false });
      } catch (error) {
        if (requestId === latestRequest) {
          set({ loading: false, error: errorMessage(error, 'Failed to fetch invite codes') });
        }
      }
    },

    async generate(body) {
      try {
        const { invite_code } = await createInvite(body);
        set({ inviteCodes: [invite_code, ...get().inviteCodes.filter((row) => row.id !== invite_code.id)] });
        return { ok: true, invite: invite_code };
      } catch (error) {
        return { ok: false, message: errorMessage(error, 'Failed to generate invite code') };
      }
    },

    async disable(invite) {
      try {
        const { message } = await disableInvite(invite.code);
        set({ inviteCodes: get().inviteCodes.map((row) => (row.id === invite.id ? { ...row, enabled: false } : row)) });
        return { ok: true, message };
      } catch (error) {
        return { ok: false, message: errorMessage(error, 'Failed to disable invite code') };
      }
    },

    async remove(invite) {
      try {
        const { message } = await deleteInvite(invite.id);
        set({ inviteCodes: get().inviteCodes.filter((row) => row.id !== invite.id) });
        return { ok: true, message };
      } catch (error) {
        return { ok: false, message: errorMessage(error, 'Failed to delete invite code') };
      }
    },
  }));
}

export const useAdminInvitesStore = createAdminInvitesStore();
