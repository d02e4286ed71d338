import { afterEach, describe, expect, it } from 'vitest';
import { harness, type Harness, PASSWORD, samplePass } from './testing/sim-harness.js';

const ALEX = 'alex@wallet.test';
const SAM = 'sam@wallet.test';

const ids = (res: { json(): unknown }) => (res.json() as { passes: { id: string }[] }).passes.map((pass) => pass.id);

describe('wallet-sim control API', () => {
  let h: Harness;
  afterEach(async () => {
    await h.app.close();
  });

  async function twoWallets(options: Parameters<typeof harness>[0] = {}) {
    h = harness(options);
    await h.createWallet(ALEX);
    await h.createWallet(SAM);
    return { alex: await h.login(ALEX), sam: await h.login(SAM) };
  }

  it('creates a wallet (201, the account) and refuses the same e-mail twice (409)', async () => {
    h = harness();
    const res = await h.request({
      method: 'POST',
      url: '/control/wallets',
      payload: { email: 'New@Wallet.test', password: PASSWORD, first_name: 'Nia', last_name: 'Stone' },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      id: expect.stringMatching(/^acct_[0-9a-f]{20}$/),
      email: 'new@wallet.test',
      first_name: 'Nia',
      last_name: 'Stone',
      display_name: 'Nia Stone',
    });
    const again = await h.createWallet('new@wallet.test');
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe('wallet_exists');
    expect((await h.get('/control/wallets')).json().wallets).toEqual([
      { account: res.json(), passes: 0, visible_passes: 0 },
    ]);
  });

  it('adds a pass with a generated id, and removes it (204)', async () => {
    const { alex } = await twoWallets();
    const added = await h.addPass(ALEX);
    expect(added.statusCode).toBe(201);
    const pass = added.json();
    expect(pass).toMatchObject({
      id: expect.stringMatching(/^ps_[0-9a-f]{20}$/),
      barcode: expect.stringMatching(/^\d{16}$/),
    });
    expect(ids(await h.get('/v1/passes', alex))).toEqual([pass.id]);
    const removed = await h.request({ method: 'DELETE', url: `/control/wallets/${ALEX}/passes/${pass.id}` });
    expect(removed.statusCode).toBe(204);
    expect(ids(await h.get('/v1/passes', alex))).toEqual([]);
    const again = await h.request({ method: 'DELETE', url: `/control/wallets/${ALEX}/passes/${pass.id}` });
    expect(again.statusCode).toBe(404);
    expect(again.json().error).toBe('pass_not_found');
  });

  it('holds the same pass (id and barcode) in two wallets: a duplicate; but not twice in one', async () => {
    const { alex, sam } = await twoWallets();
    const pass = samplePass({ id: 'dup-1', barcode: 'BC-777' });
    expect((await h.addPass(ALEX, pass)).statusCode).toBe(201);
    expect((await h.addPass(SAM, pass)).statusCode).toBe(201);
    const twice = await h.addPass(SAM, pass);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error).toBe('pass_exists');
    // A duplicate by barcode only: another pass id, the same barcode.
    expect((await h.addPass(SAM, samplePass({ id: 'dup-2', barcode: 'BC-777' }))).statusCode).toBe(201);
    const fromAlex = (await h.get('/v1/passes', alex)).json().passes;
    const fromSam = (await h.get('/v1/passes', sam)).json().passes;
    expect(fromAlex.map((p: { barcode: string }) => p.barcode)).toEqual(['BC-777']);
    expect(fromSam.map((p: { id: string; barcode: string }) => [p.id, p.barcode])).toEqual([
      ['dup-1', 'BC-777'],
      ['dup-2', 'BC-777'],
    ]);
    // Removing it from one wallet leaves the other's copy alone.
    await h.request({ method: 'DELETE', url: `/control/wallets/${SAM}/passes/dup-1` });
    expect(ids(await h.get('/v1/passes', alex))).toEqual(['dup-1']);
  });

  it('moves a pass between wallets, visible at once or after visible_after_ms', async () => {
    const { alex, sam } = await twoWallets();
    await h.addPass(ALEX, samplePass({ id: 'm1', barcode: 'B1' }));
    await h.addPass(ALEX, samplePass({ id: 'm2' }));
    const moved = await h.request({ method: 'POST', url: '/control/passes/m1/move', payload: { from: ALEX, to: SAM } });
    expect(moved.statusCode).toBe(200);
    expect(moved.json()).toMatchObject({ id: 'm1', barcode: 'B1', from: ALEX, to: SAM });
    expect(ids(await h.get('/v1/passes', alex))).toEqual(['m2']);
    expect(ids(await h.get('/v1/passes', sam))).toEqual(['m1']);

    const later = await h.request({
      method: 'POST',
      url: '/control/passes/m2/move',
      payload: { from: ALEX, to: SAM, visible_after_ms: 30_000 },
    });
    expect(later.statusCode).toBe(200);
    expect(ids(await h.get('/v1/passes', alex))).toEqual([]);
    expect(ids(await h.get('/v1/passes', sam))).toEqual(['m1']);
    h.advance(30_000);
    expect(ids(await h.get('/v1/passes', sam))).toEqual(['m1', 'm2']);
  });

  it('refuses impossible moves', async () => {
    await twoWallets();
    await h.addPass(ALEX, samplePass({ id: 'x1' }));
    await h.addPass(SAM, samplePass({ id: 'x1' }));
    const move = (passId: string, payload: object) =>
      h.request({ method: 'POST', url: `/control/passes/${passId}/move`, payload });
    expect((await move('x1', { from: ALEX, to: SAM })).json().error).toBe('pass_exists');
    expect((await move('nope', { from: ALEX, to: SAM })).json().error).toBe('pass_not_found');
    expect((await move('x1', { from: ALEX, to: 'ghost@wallet.test' })).json().error).toBe('wallet_not_found');
    expect((await move('x1', { from: ALEX, to: ALEX })).statusCode).toBe(409);
    expect((await move('x1', { from: ALEX })).statusCode).toBe(400);
  });

  it('answers 404 wallet_not_found for an unknown wallet', async () => {
    h = harness();
    const add = await h.addPass('ghost@wallet.test');
    expect(add.statusCode).toBe(404);
    expect(add.json()).toEqual({ error: 'wallet_not_found', message: expect.any(String) });
    const password = await h.request({
      method: 'POST',
      url: '/control/wallets/ghost@wallet.test/password',
      payload: { password: 'x' },
    });
    expect(password.statusCode).toBe(404);
    expect((await h.request({ method: 'POST', url: '/control/tokens/ghost@wallet.test/expire' })).statusCode).toBe(404);
  });

  it('reads and changes the configuration in force', async () => {
    h = harness();
    expect((await h.get('/control/config')).json()).toEqual({
      arrivalDelayMaxMs: 900_000,
      tokenTtlMs: 3_600_000,
      rateLimit: { requestsPerSecond: 50 },
      errorRate: 0,
      latencyMs: { min: 0, max: 0 },
    });
    const put = await h.request({
      method: 'PUT',
      url: '/control/config',
      payload: { errorRate: 0.2, latencyMs: { min: 5, max: 10 }, arrivalDelayMaxMs: 3_000, tokenTtlMs: 120_000 },
    });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toEqual({
      arrivalDelayMaxMs: 3_000,
      tokenTtlMs: 120_000,
      rateLimit: { requestsPerSecond: 50 },
      errorRate: 0.2,
      latencyMs: { min: 5, max: 10 },
    });
  });

  it('applies a new token lifetime to the next login', async () => {
    await twoWallets();
    await h.request({ method: 'PUT', url: '/control/config', payload: { tokenTtlMs: 5_000 } });
    const login = await h.request({
      method: 'POST',
      url: '/v1/sessions',
      payload: { email: ALEX, password: PASSWORD },
    });
    expect(login.json().expires_in).toBe(5);
    h.advance(5_000);
    expect((await h.get('/v1/me', login.json().access_token)).json().error).toBe('token_expired');
  });

  it.each([
    [{ errorRate: 1.5 }],
    [{ errorRate: -0.1 }],
    [{ latencyMs: { min: 10, max: 5 } }],
    [{ latencyMs: { min: 0 } }],
    [{ rateLimit: { requestsPerSecond: -1 } }],
    [{ rateLimit: {} }],
    [{ tokenTtlMs: 0 }],
    [{ arrivalDelayMaxMs: 1.5 }],
    [{ unknown: true }],
    [{ errorRate: '0.5' }],
  ])('refuses a bad configuration %j with 400', async (payload) => {
    h = harness();
    const res = await h.request({ method: 'PUT', url: '/control/config', payload });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('invalid_request');
    expect((await h.get('/control/config')).json().errorRate).toBe(0);
  });

  it('resets everything (wallets, tokens, statistics, configuration)', async () => {
    const { alex } = await twoWallets({ tokenTtlMs: 10_000 });
    await h.addPass(ALEX);
    await h.request({ method: 'PUT', url: '/control/config', payload: { errorRate: 0.5 } });
    const reset = await h.request({ method: 'POST', url: '/control/reset' });
    expect(reset.statusCode).toBe(200);
    expect((await h.get('/control/wallets')).json().wallets).toEqual([]);
    expect((await h.get('/control/config')).json()).toMatchObject({ errorRate: 0, tokenTtlMs: 10_000 });
    expect((await h.get('/control/stats')).json().requests.total).toBe(0);
    expect((await h.get('/v1/me', alex)).json().error).toBe('invalid_token');
  });

  it('accepts an empty JSON body where none is needed', async () => {
    h = harness();
    const res = await h.request({
      method: 'POST',
      url: '/control/reset',
      headers: { 'content-type': 'application/json' },
      payload: '',
    });
    expect(res.statusCode).toBe(200);
  });

  describe('raw passes (a provider that sends what it should not)', () => {
    it('answers a raw pass exactly as given, in id order among the others, and pages past it', async () => {
      const { alex } = await twoWallets();
      await h.addPass(ALEX, samplePass({ id: 'b-normal' }));
      let deep: unknown = 'bottom';
      for (let i = 0; i < 500; i++) deep = { deeper: deep };
      const odd = {
        id: 'a-odd',
        barcode: 12345,
        event: { title: 'Nul\u0000 and \ud800 lone, \u202Eesrever', subtitle: deep, logo_url: ['x'] },
        venue: 'not an object',
        next_game: { title: 'Far', date: '+275760-09-13T00:00:00.000Z' },
      };
      const raw = await h.request({
        method: 'POST',
        url: `/control/wallets/${ALEX}/raw-passes`,
        payload: { id: 'a-odd', pass: odd },
      });
      expect(raw.statusCode).toBe(201);
      expect(raw.json()).toMatchObject({ id: 'a-odd', raw: true });
      const page = await h.get('/v1/passes?limit=1', alex);
      expect(page.json().passes).toEqual([odd]);
      expect(page.json().passes[0].event.title).toBe('Nul\u0000 and \ud800 lone, \u202Eesrever');
      const next = await h.get(`/v1/passes?limit=1&cursor=${page.json().next_cursor}`, alex);
      expect(ids(next)).toEqual(['b-normal']);
      // Anything JSON: a bare string, a number, null.
      for (const [i, pass] of ['just text', 42, null].entries()) {
        const res = await h.request({
          method: 'POST',
          url: `/control/wallets/${ALEX}/raw-passes`,
          payload: { id: `c-${i}`, pass },
        });
        expect(res.statusCode).toBe(201);
      }
      expect((await h.get('/v1/passes', alex)).json().passes.slice(1)).toEqual([
        expect.objectContaining({ id: 'b-normal' }),
        'just text',
        42,
        null,
      ]);
    });

    it('takes a large raw pass, and refuses a missing one or a taken id', async () => {
      await twoWallets();
      const huge = await h.request({
        method: 'POST',
        url: `/control/wallets/${ALEX}/raw-passes`,
        payload: { id: 'huge', pass: { id: 'huge', event: { title: 'x'.repeat(1_000_000) } } },
      });
      expect(huge.statusCode).toBe(201);
      const missing = await h.request({ method: 'POST', url: `/control/wallets/${ALEX}/raw-passes`, payload: {} });
      expect(missing.statusCode).toBe(400);
      const taken = await h.request({
        method: 'POST',
        url: `/control/wallets/${ALEX}/raw-passes`,
        payload: { id: 'huge', pass: {} },
      });
      expect(taken.statusCode).toBe(409);
    });
  });

  describe('the control key', () => {
    const KEY = 's3cret-control-key-0001';
    const asStranger = (inject: { method?: 'GET' | 'POST' | 'PUT'; url: string; payload?: unknown }, key?: string) =>
      h.app.inject({
        method: inject.method ?? 'GET',
        url: inject.url,
        ...(inject.payload === undefined ? {} : { payload: inject.payload as Record<string, unknown> }),
        headers: key === undefined ? {} : { 'x-control-key': key },
      });

    it('is required on every /control call, and only there', async () => {
      h = harness({ controlKey: KEY });
      const missing = await asStranger({ url: '/control/stats' });
      expect(missing.statusCode).toBe(401);
      expect(missing.json().error).toBe('invalid_control_key');
      expect((await asStranger({ url: '/control/stats' }, 'nope')).statusCode).toBe(401);
      expect((await asStranger({ url: '/control/stats' }, `${KEY}x`)).statusCode).toBe(401);
      expect((await asStranger({ url: '/control/stats' }, KEY.slice(0, -1))).statusCode).toBe(401);
      expect((await asStranger({ url: '/control/stats' }, KEY)).statusCode).toBe(200);
      expect((await h.get('/health')).statusCode).toBe(200);
      expect((await h.get('/v1/me')).json().error).toBe('invalid_token');
    });

    it('refuses a stranger every change (wallets, passes, passwords, errorRate, reset) and changes nothing', async () => {
      h = harness({ controlKey: KEY });
      await h.createWallet(ALEX);
      const before = (await h.get('/control/config')).json();
      const attempts = [
        {
          method: 'POST' as const,
          url: '/control/wallets',
          payload: { email: 'x@wallet.test', password: 'p', first_name: 'X', last_name: 'Y' },
        },
        { method: 'POST' as const, url: `/control/wallets/${ALEX}/passes`, payload: samplePass() },
        { method: 'POST' as const, url: `/control/wallets/${ALEX}/raw-passes`, payload: { pass: { id: 'x' } } },
        { method: 'POST' as const, url: `/control/wallets/${ALEX}/password`, payload: { password: 'taken-over' } },
        { method: 'PUT' as const, url: '/control/config', payload: { errorRate: 1 } },
        { method: 'POST' as const, url: '/control/reset' },
        { method: 'GET' as const, url: '/control/wallets' },
      ];
      for (const attempt of attempts) {
        for (const key of [undefined, '', 'wrong-key-of-some-length']) {
          const res = await asStranger(attempt, key);
          expect(res.statusCode, `${attempt.method} ${attempt.url} with ${String(key)}`).toBe(401);
        }
      }
      expect((await h.get('/control/config')).json()).toEqual(before);
      expect(
        (await h.get('/control/wallets')).json().wallets.map((w: { account: { email: string } }) => w.account.email),
      ).toEqual([ALEX]);
      expect((await h.get(`/control/wallets/${ALEX}/passes`)).json().passes).toEqual([]);
      // The password is the one it had: the owner still signs in with it.
      expect(await h.login(ALEX)).toMatch(/^wst_/);
    });

    it('reads the key from WALLET_SIM_CONTROL_KEY', async () => {
      h = harness({ env: { WALLET_SIM_CONTROL_KEY: 'from-env-key-0001' } });
      expect((await asStranger({ url: '/control/stats' })).statusCode).toBe(401);
      expect((await asStranger({ url: '/control/stats' }, 'from-env-key-0001')).statusCode).toBe(200);
    });

    it('is a random one when none is given: the control API is never open', async () => {
      h = harness();
      expect(h.app.walletSim.controlKey.length).toBeGreaterThanOrEqual(32);
      expect((await asStranger({ url: '/control/stats' })).statusCode).toBe(401);
      expect((await asStranger({ url: '/control/stats' }, h.app.walletSim.controlKey)).statusCode).toBe(200);
    });

    it('refuses a short key at start', () => {
      expect(() => harness({ controlKey: 'short' })).toThrow(/controlKey/);
    });
  });
});
