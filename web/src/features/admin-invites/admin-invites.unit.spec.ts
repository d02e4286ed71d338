import { afterEach, describe, expect, it, vi } from 'vitest';
import type { InviteCode, InviteCodesResponse } from '@seatlink/contracts';
import { createQueryClient } from '../../lib/create-query-client';
import { querySlice } from '../../lib/query-slice';
import { stubFetch } from '../../testing/fetch-stub';
import {
  ADMIN_INVITES_KEY,
  adminInvitesQuery,
  disableInviteCode,
  generateInvite,
  INVITES_FETCH_FAILED,
  removeInviteCode,
} from './admin-invites.queries';

afterEach(() => {
  vi.unstubAllGlobals();
});

function anInvite(overrides: Partial<InviteCode> = {}): InviteCode {
  return {
    id: '00000000-0000-4000-8000-000000000001',
    code: 'ABCD-1234',
    used: 0,
    max_uses: 100,
    enabled: true,
    expires_at: '2030-01-02T00:00:00.000Z',
    created_at: '2025-01-01T10:00:00.000Z',
    ...overrides,
  };
}

type Client = ReturnType<typeof createQueryClient>;
const state = (client: Client) =>
  client.getQueryCache().find<InviteCodesResponse>({ queryKey: ADMIN_INVITES_KEY })!.state;
const codes = (client: Client) => client.getQueryData<InviteCodesResponse>(ADMIN_INVITES_KEY)!.invite_codes;

/** A client holding the invite list `invites`. */
async function holding(invites: InviteCode[]): Promise<Client> {
  stubFetch({ status: 200, body: { invite_codes: invites } });
  const client = createQueryClient();
  await client.fetchQuery(adminInvitesQuery);
  vi.unstubAllGlobals();
  return client;
}

describe('admin invites', () => {
  it('reads the list', async () => {
    const invites = [anInvite(), anInvite({ id: 'i-2', code: 'WXYZ-9876' })];
    const calls = stubFetch({ status: 200, body: { invite_codes: invites } });
    const client = createQueryClient();

    const pending = client.fetchQuery(adminInvitesQuery);
    expect(querySlice(state(client), INVITES_FETCH_FAILED).loading).toBe(true);
    await pending;

    expect(calls[0]).toMatchObject({ url: '/v1/admin/invites', method: 'GET', credentials: 'include' });
    expect(querySlice(state(client), INVITES_FETCH_FAILED)).toMatchObject({ loading: false, error: null });
    expect(codes(client)).toEqual(invites);
  });

  it("falls back to 'Failed to fetch invite codes'", async () => {
    stubFetch({ status: 500 });
    const client = createQueryClient();
    await expect(client.fetchQuery(adminInvitesQuery)).rejects.toThrow();
    expect(querySlice(state(client), INVITES_FETCH_FAILED)).toMatchObject({
      loading: false,
      error: 'Failed to fetch invite codes',
    });
  });

  it('puts a generated code at the top', async () => {
    const created = anInvite({ id: 'new', code: 'NEW0-0001' });
    const client = await holding([anInvite()]);
    const calls = stubFetch({ status: 201, body: { invite_code: created } });

    await expect(generateInvite(client, { max_uses: 5, expires_at: '2030-01-01' })).resolves.toEqual({
      ok: true,
      invite: created,
    });

    expect(calls[0]).toMatchObject({
      url: '/v1/admin/invites',
      method: 'POST',
      body: { max_uses: 5, expires_at: '2030-01-01' },
    });
    expect(codes(client).map((i) => i.code)).toEqual(['NEW0-0001', 'ABCD-1234']);
  });

  it('disables by code value and deletes by id', async () => {
    const invite = anInvite();
    const client = await holding([invite]);
    const calls = stubFetch(
      { status: 200, body: { message: 'Invite code disabled' } },
      { status: 200, body: { message: 'Invite code deleted' } },
    );

    await expect(disableInviteCode(client, invite)).resolves.toEqual({ ok: true, message: 'Invite code disabled' });
    expect(codes(client)[0]?.enabled).toBe(false);

    await expect(removeInviteCode(client, invite)).resolves.toEqual({ ok: true, message: 'Invite code deleted' });
    expect(codes(client)).toEqual([]);

    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      'POST /v1/admin/invites/ABCD-1234/disable',
      `DELETE /v1/admin/invites/${invite.id}`,
    ]);
  });

  it('reports the server message or the fallbacks', async () => {
    const invite = anInvite();
    const client = await holding([invite]);
    stubFetch(
      { status: 400, body: { message: 'expires_at must be tomorrow or later' } },
      { status: 500 },
      { status: 500 },
      { status: 500 },
    );

    await expect(generateInvite(client, { max_uses: 5, expires_at: '2020-01-01' })).resolves.toEqual({
      ok: false,
      message: 'expires_at must be tomorrow or later',
    });
    await expect(generateInvite(client, { max_uses: 5, expires_at: '2030-01-01' })).resolves.toEqual({
      ok: false,
      message: 'Failed to generate invite code',
    });
    await expect(disableInviteCode(client, invite)).resolves.toEqual({
      ok: false,
      message: 'Failed to disable invite code',
    });
    await expect(removeInviteCode(client, invite)).resolves.toEqual({
      ok: false,
      message: 'Failed to delete invite code',
    });
    expect(codes(client)).toEqual([invite]);
  });
});
