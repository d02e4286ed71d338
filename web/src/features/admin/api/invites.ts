import type {
  CreateInviteRequest,
  InviteCodeResponse,
  InviteCodesResponse,
  MessageResponse,
} from '@seatlink/contracts';
import { request } from '../../../lib/api-client';

/** GET /v1/admin/invites */
export function listInvites(): Promise<InviteCodesResponse> {
  return request<InviteCodesResponse>('/v1/admin/invites');
}

/** POST /v1/admin/invites {max_uses, expires_at (YYYY-MM-DD)} */
export function createInvite(body: CreateInviteRequest): Promise<InviteCodeResponse> {
  return request<InviteCodeResponse>('/v1/admin/invites', { method: 'POST', body });
}

/** POST /v1/admin/invites/{code}/disable: addressed by the code value, not the id (SPEC.md §7). */
export function disableInvite(code: string): Promise<MessageResponse> {
  return request<MessageResponse>(`/v1/admin/invites/${encodeURIComponent(code)}/disable`, { method: 'POST' });
}

/** DELETE /v1/admin/invites/{id} */
export function deleteInvite(id: string): Promise<MessageResponse> {
  return request<MessageResponse>(`/v1/admin/invites/${encodeURIComponent(id)}`, { method: 'DELETE' });
}
