import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubFetch } from '../testing/fetch-stub';
import { createCaptcha, loadPublicConfig, recaptchaScriptUrl, type Recaptcha } from './captcha';

afterEach(() => {
  vi.unstubAllGlobals();
});

function fakeRecaptcha(token = 'tok-1'): Recaptcha & { execute: ReturnType<typeof vi.fn> } {
  return {
    ready: (callback) => callback(),
    execute: vi.fn(async () => token),
  };
}

describe('captcha', () => {
  it('reads GET /v1/config', async () => {
    const calls = stubFetch({ status: 200, body: { captcha_site_key: 'site-key' } });
    await expect(loadPublicConfig()).resolves.toEqual({ captcha_site_key: 'site-key' });
    expect(calls[0]).toMatchObject({ url: '/v1/config', method: 'GET' });
  });

  it('builds the script address with the site key', () => {
    expect(recaptchaScriptUrl('a b')).toBe('https://www.google.com/recaptcha/api.js?render=a%20b');
  });

  it('gives null and loads nothing when the site key is null', async () => {
    const loadRecaptcha = vi.fn();
    const captcha = createCaptcha({ loadConfig: async () => ({ captcha_site_key: null }), loadRecaptcha });
    await expect(captcha.getToken('login')).resolves.toBeNull();
    expect(loadRecaptcha).not.toHaveBeenCalled();
  });

  it('loads the script once and makes a token per action', async () => {
    const recaptcha = fakeRecaptcha();
    const loadConfig = vi.fn(async () => ({ captcha_site_key: 'site-key' }));
    const loadRecaptcha = vi.fn(async () => recaptcha);
    const captcha = createCaptcha({ loadConfig, loadRecaptcha });

    await expect(captcha.getToken('register')).resolves.toBe('tok-1');
    await expect(captcha.getToken('interestRegistration')).resolves.toBe('tok-1');

    expect(loadConfig).toHaveBeenCalledTimes(1);
    expect(loadRecaptcha).toHaveBeenCalledTimes(1);
    expect(loadRecaptcha).toHaveBeenCalledWith('site-key');
    expect(recaptcha.execute.mock.calls).toEqual([
      ['site-key', { action: 'register' }],
      ['site-key', { action: 'interestRegistration' }],
    ]);
  });

  it('gives null when the config or the script fails, and tries again next time', async () => {
    const onError = vi.fn();
    const loadConfig = vi
      .fn<() => Promise<{ captcha_site_key: string | null }>>()
      .mockRejectedValueOnce(new Error('down'))
      .mockResolvedValue({ captcha_site_key: 'k' });
    const loadRecaptcha = vi
      .fn<(key: string) => Promise<Recaptcha>>()
      .mockRejectedValueOnce(new Error('blocked'))
      .mockResolvedValue(fakeRecaptcha('tok-2'));
    const captcha = createCaptcha({ loadConfig, loadRecaptcha, onError });

    await expect(captcha.getToken('login')).resolves.toBeNull();
    await expect(captcha.getToken('login')).resolves.toBeNull();
    await expect(captcha.getToken('login')).resolves.toBe('tok-2');
    expect(onError).toHaveBeenCalledTimes(2);
    expect(loadConfig).toHaveBeenCalledTimes(2);
    expect(loadRecaptcha).toHaveBeenCalledTimes(2);
  });

  it('gives up on a token that never comes', async () => {
    vi.useFakeTimers();
    try {
      const hanging: Recaptcha = { ready: (cb) => cb(), execute: () => new Promise<string>(() => {}) };
      const captcha = createCaptcha({
        loadConfig: async () => ({ captcha_site_key: 'k' }),
        loadRecaptcha: async () => hanging,
        timeoutMs: 1_000,
      });
      const pending = captcha.getToken('login');
      await vi.advanceTimersByTimeAsync(1_000);
      await expect(pending).resolves.toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });
});
