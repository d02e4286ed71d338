import { afterEach, describe, expect, it } from 'vitest';
import { harness, type Harness, PASSWORD } from './testing/sim-harness.js';

const EMAIL = 'casey@wallet.test';

describe('wallet-sim sessions', () => {
  let h: Harness;
  afterEach(async () => {
    await h.app.close();
  });

  async function setUp(options: Parameters<typeof harness>[0] = {}) {
    h = harness(options);
    expect((await h.createWallet(EMAIL)).statusCode).toBe(201);
  }

  it('logs in with the right e-mail and password and answers a bearer token and the account', async () => {
    await setUp();
    const res = await h.request({
      method: 'POST',
      url: '/v1/sessions',
      payload: { email: ' Casey@Wallet.TEST ', password: PASSWORD },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      token_type: 'Bearer',
      expires_in: 3600,
      account: {
        id: expect.stringMatching(/^acct_/),
        email: EMAIL,
        first_name: 'Test',
        last_name: 'casey',
        display_name: 'Test casey',
      },
    });
    expect(body.access_token).toEqual(expect.any(String));
    const me = await h.get('/v1/me', body.access_token);
    expect(me.statusCode).toBe(200);
    expect(me.json()).toEqual(body.account);
  });

  it('answers the same 401 invalid_credentials for a wrong password and an unknown e-mail', async () => {
    await setUp();
    const wrongPassword = await h.request({
      method: 'POST',
      url: '/v1/sessions',
      payload: { email: EMAIL, password: 'nope' },
    });
    const unknownEmail = await h.request({
      method: 'POST',
      url: '/v1/sessions',
      payload: { email: 'nobody@wallet.test', password: PASSWORD },
    });
    expect(wrongPassword.statusCode).toBe(401);
    expect(unknownEmail.statusCode).toBe(401);
    expect(wrongPassword.json()).toEqual(unknownEmail.json());
    expect(wrongPassword.json().error).toBe('invalid_credentials');
  });

  it.each([
    ['no body', undefined],
    ['an empty object', {}],
    ['a missing password', { email: EMAIL }],
    ['a number for the e-mail', { email: 42, password: PASSWORD }],
    ['an empty password', { email: EMAIL, password: '' }],
    ['an overlong password', { email: EMAIL, password: 'x'.repeat(201) }],
    ['an array', [EMAIL, PASSWORD]],
  ])('answers 400 invalid_request for %s', async (_label, payload) => {
    await setUp();
    const res = await h.request({ method: 'POST', url: '/v1/sessions', payload: payload as object | undefined });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('invalid_request');
  });

  it('answers 400 invalid_request for malformed JSON', async () => {
    await setUp();
    const res = await h.request({
      method: 'POST',
      url: '/v1/sessions',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'invalid_request', message: expect.any(String) });
  });

  it('expires tokens after tokenTtlMs with 401 token_expired', async () => {
    await setUp({ tokenTtlMs: 60_000 });
    const login = await h.request({
      method: 'POST',
      url: '/v1/sessions',
      payload: { email: EMAIL, password: PASSWORD },
    });
    expect(login.json().expires_in).toBe(60);
    const token = login.json().access_token as string;
    h.advance(59_999);
    expect((await h.get('/v1/me', token)).statusCode).toBe(200);
    h.advance(1);
    const expired = await h.get('/v1/me', token);
    expect(expired.statusCode).toBe(401);
    expect(expired.json().error).toBe('token_expired');
    expect(expired.headers['www-authenticate']).toContain('Bearer');
    // Signing in again works.
    expect((await h.get('/v1/me', await h.login(EMAIL))).statusCode).toBe(200);
  });

  it('revokes every token of a wallet when its password changes', async () => {
    await setUp();
    await h.createWallet('other@wallet.test');
    const first = await h.login(EMAIL);
    const second = await h.login(EMAIL);
    const other = await h.login('other@wallet.test');
    const change = await h.request({
      method: 'POST',
      url: `/control/wallets/${EMAIL}/password`,
      payload: { password: 'Changed456!' },
    });
    expect(change.statusCode).toBe(200);
    expect(change.json()).toMatchObject({ account: { email: EMAIL }, revoked_tokens: 2 });
    for (const token of [first, second]) {
      const res = await h.get('/v1/passes', token);
      expect(res.statusCode).toBe(401);
      expect(res.json().error).toBe('token_revoked');
    }
    expect((await h.get('/v1/me', other)).statusCode).toBe(200);
    // The old password no longer works; the new one does.
    await expect(h.login(EMAIL)).rejects.toThrow(/401/);
    expect((await h.get('/v1/me', await h.login(EMAIL, 'Changed456!'))).statusCode).toBe(200);
  });

  it('makes the tokens of one wallet expire on demand (POST /control/tokens/:email/expire)', async () => {
    await setUp();
    await h.createWallet('other@wallet.test');
    const token = await h.login(EMAIL);
    const other = await h.login('other@wallet.test');
    const res = await h.request({ method: 'POST', url: `/control/tokens/${EMAIL}/expire` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ expired_tokens: 1 });
    expect((await h.get('/v1/me', token)).json().error).toBe('token_expired');
    expect((await h.get('/v1/me', other)).statusCode).toBe(200);
  });

  it.each([
    ['no Authorization header', undefined],
    ['an unknown token', 'Bearer wst_unknown'],
    ['another scheme', 'Basic Y2FzZXk6cGFzcw=='],
    ['a bare Bearer', 'Bearer '],
    ['a token with spaces', 'Bearer a b c'],
  ])('answers 401 invalid_token for %s', async (_label, authorization) => {
    await setUp();
    const res = await h.request({
      method: 'GET',
      url: '/v1/passes',
      headers: authorization === undefined ? {} : { authorization },
    });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ error: 'invalid_token', message: expect.any(String) });
  });

  it('forgets the tokens of a deleted wallet (invalid_token) and refuses its login', async () => {
    await setUp();
    const token = await h.login(EMAIL);
    expect((await h.request({ method: 'DELETE', url: `/control/wallets/${EMAIL}` })).statusCode).toBe(204);
    expect((await h.get('/v1/me', token)).json().error).toBe('invalid_token');
    await expect(h.login(EMAIL)).rejects.toThrow(/401/);
  });

  describe('guessing: failed sign-ins counted per wallet and per address', () => {
    const signIn = (email: string, password: string, remoteAddress = '203.0.113.7') =>
      h.request({ method: 'POST', url: '/v1/sessions', payload: { email, password }, remoteAddress });

    it('answers 429 with Retry-After past the limit of one wallet, even a burst at once, whatever the password', async () => {
      await setUp({ signInLimits: { perWallet: 5, perAddress: 1000 } });
      const burst = await Promise.all(Array.from({ length: 30 }, (_, i) => signIn(EMAIL, `wrong-${i}`)));
      const statuses = burst.map((r) => r.statusCode).sort();
      expect(statuses.filter((s) => s === 401)).toHaveLength(5);
      expect(statuses.filter((s) => s === 429)).toHaveLength(25);
      const refused = burst.find((r) => r.statusCode === 429)!;
      expect(refused.json()).toEqual({
        error: 'too_many_attempts',
        message: 'Too many failed sign-in attempts; retry later',
      });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      // The right password from elsewhere is held too (the wallet is what is guessed), and the e-mail's case is no way round.
      expect((await signIn(EMAIL, PASSWORD, '198.51.100.1')).statusCode).toBe(429);
      expect((await signIn(EMAIL.toUpperCase(), PASSWORD, '198.51.100.1')).statusCode).toBe(429);
    });

    it('counts only failures: sign-ins that succeed never add up', async () => {
      await setUp({ signInLimits: { perWallet: 3, perAddress: 3 } });
      for (let i = 0; i < 12; i++) expect((await signIn(EMAIL, PASSWORD)).statusCode).toBe(200);
      expect((await signIn(EMAIL, 'nope')).statusCode).toBe(401);
      expect((await signIn(EMAIL, PASSWORD)).statusCode).toBe(200);
    });

    it('holds one address guessing across many wallets, and not the others', async () => {
      await setUp({ signInLimits: { perWallet: 100, perAddress: 4 } });
      const tries = [];
      for (let i = 0; i < 6; i++) tries.push((await signIn(`nobody-${i}@wallet.test`, 'x')).statusCode);
      expect(tries).toEqual([401, 401, 401, 401, 429, 429]);
      expect((await signIn(EMAIL, PASSWORD, '198.51.100.2')).statusCode).toBe(200);
    });

    it('refuses limits that are not whole numbers of at least 1', () => {
      expect(() => harness({ signInLimits: { perWallet: 0 } })).toThrow(/signInLimits/);
      expect(() => harness({ env: { WALLET_SIM_SIGNIN_PER_ADDRESS: '2.5' } })).toThrow(/signInLimits/);
    });
  });
});
