import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreateInviteRequest, InviteCode } from '@seatlink/contracts';
import { querySlice } from '../../lib/query-slice';
import {
  adminInvitesQuery,
  disableInviteCode,
  generateInvite,
  INVITES_FETCH_FAILED,
  removeInviteCode,
} from './admin-invites.queries';

const NO_CODES: InviteCode[] = [];

/** The invite codes (docs/reference.md "Screen state": inviteCodes, loading, error). */
export function useAdminInvites() {
  const query = useQuery(adminInvitesQuery);
  const { loading, error } = querySlice(query, INVITES_FETCH_FAILED);
  return { inviteCodes: query.data?.invite_codes ?? NO_CODES, loading, error };
}

export function useGenerateInvite() {
  const client = useQueryClient();
  return useMutation({ mutationFn: (body: CreateInviteRequest) => generateInvite(client, body) }).mutateAsync;
}

export function useDisableInvite() {
  const client = useQueryClient();
  return useMutation({ mutationFn: (invite: InviteCode) => disableInviteCode(client, invite) }).mutateAsync;
}

export function useRemoveInvite() {
  const client = useQueryClient();
  return useMutation({ mutationFn: (invite: InviteCode) => removeInviteCode(client, invite) }).mutateAsync;
}
