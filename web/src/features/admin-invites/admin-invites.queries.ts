import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { CreateInviteRequest, InviteCode, InviteCodesResponse } from '@seatlink/contracts';
import { errorMessage } from '../../lib/api-client';
import { createInvite } from './api/create-invite';
import { deleteInvite } from './api/delete-invite';
import { disableInvite } from './api/disable-invite';
import { listInvites } from './api/list-invites';

/** The invite codes part of the admin slice (docs/reference.md "Screen state"). */
export const ADMIN_INVITES_KEY = ['admin', 'invites'] as const;

export const INVITES_FETCH_FAILED = 'Failed to fetch invite codes';

export const adminInvitesQuery = queryOptions({ queryKey: ADMIN_INVITES_KEY, queryFn: () => listInvites() });

export type GenerateInviteResult = { ok: true; invite: InviteCode } | { ok: false; message: string };
export type InviteActionResult = { ok: boolean; message: string };

function changeCodes(client: QueryClient, change: (codes: InviteCode[]) => InviteCode[]) {
  client.setQueryData<InviteCodesResponse>(ADMIN_INVITES_KEY, (held) =>
    held ? { ...held, invite_codes: change(held.invite_codes) } : held,
  );
}

/** POST a new code; it goes to the top of the list. Failure: server message or 'Failed to generate invite code'. */
export async function generateInvite(client: QueryClient, body: CreateInviteRequest): Promise<GenerateInviteResult> {
  try {
    const { invite_code } = await createInvite(body);
    // A read of the list under way (a socket reconnecting reads every page again) would answer the list from before
    // this code and put it back over it: it is called off first.
    await client.cancelQueries({ queryKey: ADMIN_INVITES_KEY });
    changeCodes(client, (codes) => [invite_code, ...codes.filter((row) => row.id !== invite_code.id)]);
    return { ok: true, invite: invite_code };
  } catch (error) {
    return { ok: false, message: errorMessage(error, 'Failed to generate invite code') };
  }
}

/**
 * Active becomes Disabled (docs/reference.md "Invite code states"). Failure: server message or
 * 'Failed to disable invite code'.
 */
export async function disableInviteCode(client: QueryClient, invite: InviteCode): Promise<InviteActionResult> {
  try {
    const { message } = await disableInvite(invite.code);
    changeCodes(client, (codes) => codes.map((row) => (row.id === invite.id ? { ...row, enabled: false } : row)));
    return { ok: true, message };
  } catch (error) {
    return { ok: false, message: errorMessage(error, 'Failed to disable invite code') };
  }
}

/** Removes the code. Failure: server message or 'Failed to delete invite code'. */
export async function removeInviteCode(client: QueryClient, invite: InviteCode): Promise<InviteActionResult> {
  try {
    const { message } = await deleteInvite(invite.id);
    changeCodes(client, (codes) => codes.filter((row) => row.id !== invite.id));
    return { ok: true, message };
  } catch (error) {
    return { ok: false, message: errorMessage(error, 'Failed to delete invite code') };
  }
}
