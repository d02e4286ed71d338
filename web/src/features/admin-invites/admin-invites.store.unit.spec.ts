import { afterEach, describe, expect, it, vi } from 'vitest';
import type { InviteCode } from '@seatlink/contracts';
import { stubFetch } from '../../testing/fetch-stub';
import { createAdminInvitesStore } from './admin-invites.store';

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

describe('admin invites store', () => {
  it('loads the list', async () => {
    const invites = [anInvite(), anInvite({ id: 'i-2', code: 'WXYZ-9876' })];
    const calls = stubFetch({ status: 200, body: { invite_codes: invites } });
    const store = createAdminInvitesStore();

    const pending = store.getState().fetchInvites();
    expect(store.getState().loading).toBe(true);
    await pending;

    expect(calls[0]).toMatchObject({ url: '/v1/admin/invites', method: 'GET', credentials: 'include' });
    expect(store.getState()).toMatchObject({ inviteCodes: invites, loading: false, error: null });
  });

  it("falls back to 'Failed to fetch invite codes'", async () => {
    stubFetch({ status: 500 });
    const store = createAdminInvitesStore();
    await store.getState().fetchInvites();
    expect(store.getState()).toMatchObject({ loading: false, error: 'Failed to fetch invite codes' });
  });

  it('puts a generated code at the top', async () => {
    const created = anInvite({ id: 'new', code: 'NEW0-0001' });
    const calls = stubFetch({ status: 201, body: { invite_code: created } });
    const store = createAdminInvitesStore();
    store.setState({ inviteCodes: [anInvite()] });

    await expect(store.getState().generate({ max_uses: 5, expires_at: '2030-01-01' })).resolves.toEqual({
      ok: true,
      invite: created,
    });

    expect(calls[0]).toMatchObject({
      url: '/v1/admin/invites',
      method: 'POST',
      body: { max_uses: 5, expires_at: '2030-01-01' },
    });
    expect(store.getState().inviteCodes.map((i) => i.code)).toEqual(['NEW0-0001', 'ABCD-1234']);
  });

  it('disables by code value and deletes by id', async () => {
    const invite = anInvite();
    const calls = stubFetch(
      { status: 200, body: { message: 'Invite code disabled' } },
      { status: 200, body: { message: 'Invite code deleted' } },
    );
    const store = createAdminInvitesStore();
    store.setState({ inviteCodes: [invite] });

    await expect(store.getState().disable(invite)).resolves.toEqual({ ok: true, message: 'Invite code disabled' });
    expect(store.getState().inviteCodes[0]?.enabled).toBe(false);

    await expect(store.getState().remove(invite)).resolves.toEqual({ ok: true, message: 'Invite code deleted' });
    expect(store.getState().inviteCodes).toEqual([]);

    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      'POST /v1/admin/invites/ABCD-1234/disable',
      `DELETE /v1/admin/invites/${invite.id}`,
    ]);
  });

  it('reports the server message or the fallbacks', async () => {
    const invite = anInvite();
    stubFetch(
      { status: 400, body: { message: 'expires_at must be tomorrow or later' } },
      { status: 500 },
      { status: 500 },
      { status: 500 },
    );
    const store = createAdminInvitesStore();
    store.setState({ inviteCodes: [invite] });

    await expect(store.getState().generate({ max_uses: 5, expires_at: '2020-01-01' })).resolves.toEqual({
      ok: false,
      message: 'expires_at must be tomorrow or later',
    });
    await expect(store.getState().generate({ max_uses: 5, expires_at: '2030-01-01' })).resolves.toEqual({
      ok: false,
      message: 'Failed to generate invite code',
    });
    await expect(store.getState().disable(invite)).resolves.toEqual({
      ok: false,
      message: 'Failed to disable invite code',
    });
    await expect(store.getState().remove(invite)).resolves.toEqual({
      ok: false,
      message: 'Failed to delete invite code',
    });
    expect(store.getState().inviteCodes).toEqual([invite]);
  });
});
