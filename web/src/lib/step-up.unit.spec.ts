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

  it('tells the asker how: a passkey (with a recovery code beside it), an app, or a password for anything else', async () => {
    const asked: unknown[] = [];
    release = setStepUpHandler((method, _message, passkey) => {
      asked.push([method, passkey]);
      return Promise.resolve(false);
    });
    const required = (method: unknown, passkey?: unknown) => ({
      status: 403,
      body: { message: 'Confirm it is you', code: 'STEP_UP_REQUIRED', method, passkey },
    });
    for (const answer of [
      required('passkey', true),
      required('totp', true),
      required('totp'),
      required('sms', 'yes'),
    ]) {
      stubFetch(answer);
      await expect(request('/v1/admin/invites', { method: 'POST' })).rejects.toMatchObject({ status: 403 });
    }
    expect(asked).toEqual([
      ['passkey', true],
      ['totp', true],
      ['totp', false],
      ['password', false],
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
