import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { createSimulator, DEMO_WALLETS, walletSimPlugin } from './index.js';
import { samplePass, T0 } from './testing/sim-harness.js';

const KEY = 'mounting-control-key-0001';
const control = { 'x-control-key': KEY };

describe('wallet-sim mounted as a plugin under a prefix', () => {
  let host: FastifyInstance;
  afterEach(async () => {
    await host.close();
  });

  async function mount() {
    host = Fastify();
    host.get('/api/hello', async () => ({ hello: 'world' }));
    await host.register(walletSimPlugin, {
      prefix: '/wallet-sim',
      env: {},
      now: () => T0,
      arrivalDelayMaxMs: 0,
      controlKey: KEY,
    });
    return host;
  }

  it('serves every route under the prefix and leaves the host app alone', async () => {
    await mount();
    expect((await host.inject({ url: '/wallet-sim/health' })).json()).toEqual({ status: 'ok', service: 'wallet-sim' });
    expect((await host.inject({ url: '/api/hello' })).json()).toEqual({ hello: 'world' });
    expect((await host.inject({ url: '/health' })).statusCode).toBe(404);
    expect((await host.inject({ url: '/v1/me' })).statusCode).toBe(404);

    const wallet = await host.inject({
      method: 'POST',
      url: '/wallet-sim/control/wallets',
      headers: control,
      payload: { email: 'p@wallet.test', password: 'pw', first_name: 'P', last_name: 'Q' },
    });
    expect(wallet.statusCode).toBe(201);
    await host.inject({
      method: 'POST',
      url: '/wallet-sim/control/wallets/p@wallet.test/passes',
      headers: control,
      payload: samplePass({ id: 'p1', event: { title: 'T', subtitle: 'S', logo_slug: 'kingsmere-united' } }),
    });
    const login = await host.inject({
      method: 'POST',
      url: '/wallet-sim/v1/sessions',
      payload: { email: 'p@wallet.test', password: 'pw' },
    });
    expect(login.statusCode).toBe(200);
    const passes = await host.inject({
      url: '/wallet-sim/v1/passes',
      headers: { authorization: `Bearer ${login.json().access_token}`, host: 'seatlink.test:3000' },
    });
    const logoUrl = passes.json().passes[0].event.logo_url as string;
    expect(logoUrl).toBe('http://seatlink.test:3000/wallet-sim/logos/kingsmere-united.svg');
    const logo = await host.inject({ url: new URL(logoUrl).pathname });
    expect(logo.statusCode).toBe(200);
    expect(logo.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect((await host.inject({ url: '/wallet-sim/control/stats' })).statusCode).toBe(401);
    const stats = await host.inject({ url: '/wallet-sim/control/stats', headers: control });
    expect(Object.keys(stats.json().requests.by_route).sort()).toEqual(['GET /v1/passes', 'POST /v1/sessions']);
  });

  it('builds logo URLs on publicUrl, where browsers reach it, whatever address the caller used', async () => {
    host = Fastify();
    await host.register(walletSimPlugin, {
      prefix: '/wallet-sim',
      env: { WALLET_SIM_PUBLIC_URL: 'https://seatlink.example/wallet-sim/', WALLET_SIM_CONTROL_KEY: KEY },
      now: () => T0,
      arrivalDelayMaxMs: 0,
    });
    await host.inject({
      method: 'POST',
      url: '/wallet-sim/control/wallets',
      headers: control,
      payload: { email: 'p@wallet.test', password: 'pw', first_name: 'P', last_name: 'Q' },
    });
    await host.inject({
      method: 'POST',
      url: '/wallet-sim/control/wallets/p@wallet.test/passes',
      headers: control,
      payload: samplePass({ id: 'p1', event: { title: 'T', subtitle: 'S', logo_slug: 'kingsmere-united' } }),
    });
    const login = await host.inject({
      method: 'POST',
      url: '/wallet-sim/v1/sessions',
      payload: { email: 'p@wallet.test', password: 'pw' },
    });
    const passes = await host.inject({
      url: '/wallet-sim/v1/passes',
      headers: { authorization: `Bearer ${login.json().access_token}`, host: '127.0.0.1:3000' },
    });
    expect(passes.json().passes[0].event.logo_url).toBe(
      'https://seatlink.example/wallet-sim/logos/kingsmere-united.svg',
    );
  });

  it.each(['ftp://seatlink.example/x', 'not a url', 'https://seatlink.example/x?y=1', 'javascript:alert(1)'])(
    'refuses %s as publicUrl',
    (publicUrl) => {
      expect(() => createSimulator({ env: {}, publicUrl })).toThrow(/publicUrl/);
    },
  );

  it('answers its own errors under the prefix, and unknown routes there as { error, message }', async () => {
    await mount();
    const missing = await host.inject({ url: '/wallet-sim/v2/nothing' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: 'not_found', message: 'No route GET /wallet-sim/v2/nothing' });
    const bad = await host.inject({ method: 'POST', url: '/wallet-sim/v1/sessions', payload: { email: 1 } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe('invalid_request');
  });

  it('seeds the demo wallets when asked', async () => {
    host = Fastify();
    await host.register(walletSimPlugin, { prefix: '/wallet-sim', env: {}, seedDemo: true, controlKey: KEY });
    const wallets = (await host.inject({ url: '/wallet-sim/control/wallets', headers: control })).json().wallets;
    expect(wallets.map((w: { account: { email: string } }) => w.account.email)).toEqual(
      DEMO_WALLETS.map((w) => w.email),
    );
  });

  it('can share a simulator the caller holds', async () => {
    const sim = createSimulator({ env: {} });
    sim.createWallet({ email: 'shared@wallet.test', password: 'pw', first_name: 'S', last_name: 'H' });
    host = Fastify();
    await host.register(walletSimPlugin, { prefix: '/remote', sim });
    const login = await host.inject({
      method: 'POST',
      url: '/remote/v1/sessions',
      payload: { email: 'shared@wallet.test', password: 'pw' },
    });
    expect(login.statusCode).toBe(200);
    expect(sim.stats.total).toBe(1);
  });

  it('refuses a bad configuration at registration', async () => {
    host = Fastify();
    await expect(host.register(walletSimPlugin, { env: { WALLET_SIM_ERROR_RATE: '2' } })).rejects.toThrow(
      /invalid configuration/,
    );
  });
});
