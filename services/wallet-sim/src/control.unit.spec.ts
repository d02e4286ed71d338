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

  describe('with a control key', () => {
    it('requires x-control-key on /control only', async () => {
      h = harness({ controlKey: 's3cret' });
      const missing = await h.get('/control/stats');
      expect(missing.statusCode).toBe(401);
      expect(missing.json().error).toBe('invalid_control_key');
      const wrong = await h.request({ method: 'GET', url: '/control/stats', headers: { 'x-control-key': 'nope' } });
      expect(wrong.statusCode).toBe(401);
      const right = await h.request({ method: 'GET', url: '/control/stats', headers: { 'x-control-key': 's3cret' } });
      expect(right.statusCode).toBe(200);
      expect((await h.get('/health')).statusCode).toBe(200);
      expect((await h.get('/v1/me')).json().error).toBe('invalid_token');
    });

    it('reads the key from WALLET_SIM_CONTROL_KEY', async () => {
      h = harness({ env: { WALLET_SIM_CONTROL_KEY: 'from-env' } });
      expect((await h.get('/control/stats')).statusCode).toBe(401);
      const right = await h.request({ method: 'GET', url: '/control/stats', headers: { 'x-control-key': 'from-env' } });
      expect(right.statusCode).toBe(200);
    });
  });
});
