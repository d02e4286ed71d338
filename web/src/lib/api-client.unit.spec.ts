import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubFetch } from '../testing/fetch-stub';
import { buildPath, routes } from '@seatlink/contracts';
import { ApiError, callApi, errorMessage, request } from './api-client';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('request helper', () => {
  it('sends JSON with cookies and returns the parsed body', async () => {
    const calls = stubFetch({ status: 200, body: { ok: 1 } });
    await expect(request('/v1/x', { method: 'PUT', body: { credits: 3 } })).resolves.toEqual({ ok: 1 });
    expect(calls).toEqual([{ url: '/v1/x', method: 'PUT', body: { credits: 3 }, credentials: 'include' }]);
  });

  it("rejects a non-OK response with the body's message, code and status", async () => {
    stubFetch({ status: 403, body: { message: 'Forbidden resource', code: 'FORBIDDEN' } });
    const error = await request('/v1/admin/users').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ message: 'Forbidden resource', code: 'FORBIDDEN', status: 403 });
  });

  it('joins a list of validation messages', async () => {
    stubFetch({ status: 400, body: { message: ['credits must be 0 or more', 'bad'] } });
    await expect(request('/v1/x')).rejects.toMatchObject({ message: 'credits must be 0 or more, bad' });
  });

  it('rejects a network failure with code UNKNOWN_ERROR', async () => {
    stubFetch(new TypeError('Failed to fetch'));
    await expect(request('/v1/me')).rejects.toMatchObject({ code: 'UNKNOWN_ERROR', status: 0 });
  });

  it('can leave cookies out', async () => {
    const calls = stubFetch({ status: 204 });
    await expect(request('/v1/auth/reset-password', { withCredentials: false })).resolves.toBeUndefined();
    expect(calls[0]?.credentials).toBe('omit');
  });

  it('lets callers fall back when the server sent no message', () => {
    expect(errorMessage(new ApiError('', 500), 'Failed to fetch users')).toBe('Failed to fetch users');
    expect(errorMessage(new ApiError('Nope', 500), 'Failed to fetch users')).toBe('Nope');
    expect(errorMessage(new Error('internal'), 'Something went wrong')).toBe('Something went wrong');
  });
});

describe('calls by route (routes of @seatlink/contracts)', () => {
  it('takes the method and path from the route, and fills and encodes its parameters', async () => {
    const calls = stubFetch({ status: 200, body: {} }, { status: 200, body: {} }, { status: 200, body: {} });
    await callApi(routes.adminSetUserCredits, { params: { id: 'u 1' }, body: { credits: 5 } });
    await callApi(routes.adminDisableInvite, { params: { code: 'AB/CD' } });
    await callApi(routes.adminListUsers, { query: { page: 2, limit: 10, skipped: undefined } });
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      'PUT /v1/admin/users/u%201/credits',
      'POST /v1/admin/invites/AB%2FCD/disable',
      'GET /v1/admin/users?page=2&limit=10',
    ]);
    expect(calls[0]?.body).toEqual({ credits: 5 });
  });

  it('names a missing parameter, and the types ask for every one', () => {
    expect(buildPath('/v1/admin/users/:id/credits', { id: 'x' })).toBe('/v1/admin/users/x/credits');
    // @ts-expect-error -- `id` is required by the path
    expect(() => buildPath(routes.adminDeleteInvite.path, {})).toThrow('Missing path parameter "id"');
    // @ts-expect-error -- the disable route is addressed by `code`
    void (() => callApi(routes.adminDisableInvite, { params: { id: 'x' } }));
    // @ts-expect-error -- a route with parameters cannot be called without them
    void (() => callApi(routes.adminToggleUserBan));
  });
});
