import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubFetch } from '../testing/fetch-stub';
import { request } from './api-client';
import { setStepUpHandler } from './step-up';

const stepUpRequired = {
  status: 403,
  body: { message: 'Confirm it is you: enter your password', code: 'STEP_UP_REQUIRED', method: 'password' },
};

let release: (() => void) | null = null;
afterEach(() => {
  release?.();
  release = null;
  vi.unstubAllGlobals();
});

describe('a call that needs a fresh proof (403 STEP_UP_REQUIRED)', () => {
  it('asks, then sends the same call once more, key and body alike', async () => {
    const asked: string[] = [];
    release = setStepUpHandler((method, message) => {
      asked.push(`${method}: ${message}`);
      return Promise.resolve(true);
    });
    const calls = stubFetch(stepUpRequired, { status: 200, body: { ok: 1 } });
    await expect(
      request('/v1/admin/users/u1/credits', { method: 'PUT', body: { credits: 5 }, idempotencyKey: 'k1' }),
    ).resolves.toEqual({ ok: 1 });
    expect(asked).toEqual(['password: Confirm it is you: enter your password']);
    expect(calls.map((c) => [c.method, c.url, c.body, c.headers['Idempotency-Key']])).toEqual([
      ['PUT', '/v1/admin/users/u1/credits', { credits: 5 }, 'k1'],
      ['PUT', '/v1/admin/users/u1/credits', { credits: 5 }, 'k1'],
    ]);
  });

  it('fails with the server’s words when the user cancels, when nobody can ask, or when asked twice', async () => {
    release = setStepUpHandler(() => Promise.resolve(false));
    stubFetch(stepUpRequired);
    await expect(request('/v1/admin/invites', { method: 'POST' })).rejects.toMatchObject({
      status: 403,
      code: 'STEP_UP_REQUIRED',
    });
    release();
    release = null;
    stubFetch(stepUpRequired);
    await expect(request('/v1/admin/invites', { method: 'POST' })).rejects.toMatchObject({ code: 'STEP_UP_REQUIRED' });
    release = setStepUpHandler(() => Promise.resolve(true));
    const calls = stubFetch(stepUpRequired, stepUpRequired);
    await expect(request('/v1/admin/invites', { method: 'POST' })).rejects.toMatchObject({ code: 'STEP_UP_REQUIRED' });
    expect(calls).toHaveLength(2);
  });
});
