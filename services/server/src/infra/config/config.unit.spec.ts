import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

describe('loadConfig', () => {
  it('defaults to the embedded setup: no PostgreSQL, no Redis, no trusted proxy', () => {
    const config = loadConfig({});
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.REDIS_URL).toBeUndefined();
    expect(config.PORT).toBe(3000);
    expect(config.trustProxy).toBe(false);
  });

  it('points DASHBOARD_URL at the port it listens on unless told otherwise (e-mail links follow PORT)', () => {
    expect(loadConfig({}).DASHBOARD_URL).toBe('http://localhost:3000');
    expect(loadConfig({ PORT: '4000' }).DASHBOARD_URL).toBe('http://localhost:4000');
    expect(loadConfig({ PORT: '4000', DASHBOARD_URL: 'https://app.example.com' }).DASHBOARD_URL).toBe(
      'https://app.example.com',
    );
  });

  it('treats empty values as unset', () => {
    expect(loadConfig({ REDIS_URL: '', KURRENTDB_URL: ' ' }).REDIS_URL).toBeUndefined();
  });

  it('reads TRUST_PROXY as all, none, a hop count or a list', () => {
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 10.0.0.0/8' }).trustProxy).toEqual(['10.0.0.1', '10.0.0.0/8']);
    const oneHop = loadConfig({ TRUST_PROXY: '1' }).trustProxy as (address: string, hop: number) => boolean;
    expect(oneHop('10.0.0.2', 0)).toBe(true);
    expect(oneHop('203.0.113.9', 1)).toBe(false);
  });

  it('mounts the simulator without WALLET_PROVIDER_URL and links its demo wallets only then, unless told', () => {
    const embedded = loadConfig({ PORT: '4000' });
    expect(embedded.mountWalletSim).toBe(true);
    expect(embedded.walletProviderUrl).toBe('http://127.0.0.1:4000/wallet-sim');
    expect(embedded.SEED_DEMO_WALLETS).toBe(true);
    const remote = loadConfig({ WALLET_PROVIDER_URL: 'https://wallet.example' });
    expect(remote.mountWalletSim).toBe(false);
    expect(remote.SEED_DEMO_WALLETS).toBe(false);
    expect(
      loadConfig({ WALLET_PROVIDER_URL: 'http://wallet-sim:4010', SEED_DEMO_WALLETS: 'true' }).SEED_DEMO_WALLETS,
    ).toBe(true);
    expect(loadConfig({ SEED_DEMO_WALLETS: 'false' }).SEED_DEMO_WALLETS).toBe(false);
    expect(() => loadConfig({ SEED_DEMO_WALLETS: 'yes' })).toThrow(/SEED_DEMO_WALLETS/);
  });

  it('refuses a malformed value with a message naming it', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ DASHBOARD_URL: 'not a url' })).toThrow(/DASHBOARD_URL/);
  });

  it('takes card payments to Stripe only with all three of its keys, else to the test gateway', () => {
    expect(() => loadConfig({ STRIPE_SECRET_KEY: 'sk_test_x' })).toThrow(/STRIPE_WEBHOOK_SECRET/);
    expect(() => loadConfig({ STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_WEBHOOK_SECRET: 'whsec_x' })).toThrow(
      /STRIPE_PUBLISHABLE_KEY/,
    );
    const stripe = loadConfig({
      STRIPE_SECRET_KEY: 'sk_test_x',
      STRIPE_WEBHOOK_SECRET: 'whsec_x',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_x',
    });
    expect(stripe.STRIPE_PUBLISHABLE_KEY).toBe('pk_test_x');
    expect(loadConfig({}).STRIPE_SECRET_KEY).toBeUndefined();
  });
});
