import { describe, expect, it, vi } from 'vitest';
import { createCaptchaVerifier } from './captcha.module.js';
import type { CaptchaVerifier } from './captcha.port.js';
import { DisabledVerifier } from './disabled.verifier.js';
import { RecaptchaVerifier } from './recaptcha.verifier.js';

describe('DisabledVerifier', () => {
  it('is off, has no site key, and passes every token, or none', async () => {
    const verifier: CaptchaVerifier = new DisabledVerifier({ logger: { warn: () => {} } });
    expect(verifier.enabled).toBe(false);
    expect(verifier.siteKey).toBeNull();
    await expect(verifier.verify(null, 'login')).resolves.toBe(true);
    await expect(verifier.verify(undefined, 'register')).resolves.toBe(true);
    await expect(verifier.verify('any-token', 'interestRegistration', '203.0.113.7')).resolves.toBe(true);
  });

  it('says once that the captcha is off: when made, never again when used', async () => {
    const warn = vi.fn();
    const verifier = new DisabledVerifier({ logger: { warn } });
    await verifier.verify();
    await verifier.verify();
    expect(warn.mock.calls).toEqual([['captcha off: no RECAPTCHA_SECRET_KEY']]);
  });
});

describe('createCaptchaVerifier (CaptchaModule.forRoot)', () => {
  const logger = () => ({ log: vi.fn(), warn: vi.fn(), debug: vi.fn() });

  it('turns reCAPTCHA on with both keys, with the given limits', () => {
    const verifier = createCaptchaVerifier(
      { secretKey: 's', siteKey: 'site', minScore: 0.7, maxAgeSeconds: 60, verifyUrl: 'http://127.0.0.1:1/verify' },
      logger(),
    );
    expect(verifier).toBeInstanceOf(RecaptchaVerifier);
    expect(verifier.enabled).toBe(true);
    expect(verifier.siteKey).toBe('site');
    expect((verifier as RecaptchaVerifier).minScore).toBe(0.7);
    expect((verifier as RecaptchaVerifier).maxAgeSeconds).toBe(60);
  });

  it('leaves it off without keys, or with only one of them, saying which is missing', () => {
    const none = logger();
    expect(createCaptchaVerifier({}, none)).toBeInstanceOf(DisabledVerifier);
    expect(createCaptchaVerifier({ secretKey: '', siteKey: '' }, logger()).enabled).toBe(false);
    expect(none.warn).toHaveBeenCalledWith('captcha off: no RECAPTCHA_SECRET_KEY');

    const secretOnly = logger();
    expect(createCaptchaVerifier({ secretKey: 's' }, secretOnly).enabled).toBe(false);
    expect(secretOnly.warn).toHaveBeenCalledWith('captcha off: no RECAPTCHA_SITE_KEY');

    expect(createCaptchaVerifier({ siteKey: 'site' }, logger()).enabled).toBe(false);
  });
});
