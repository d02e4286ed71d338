import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { type CreateWalletSimOptions, createWalletSim, type WalletSimApp } from '../index.js';

/** 22 November 2026, 09:00 UTC: the clock tests start at. */
export const T0 = Date.UTC(2026, 10, 22, 9, 0, 0);

export interface Harness {
  app: WalletSimApp;
  /** Moves the injected clock forward. */
  advance(ms: number): void;
  now(): number;
  request(options: InjectOptions): Promise<LightMyRequestResponse>;
  /** POST /control/wallets (defaults for the names and password). */
  createWallet(email: string, password?: string): Promise<LightMyRequestResponse>;
  /** POST /control/wallets/:email/passes, visible at once unless said otherwise. */
  addPass(email: string, pass?: Record<string, unknown>): Promise<LightMyRequestResponse>;
  /** POST /v1/sessions and answer the access token (fails the test when login fails). */
  login(email: string, password?: string): Promise<string>;
  get(url: string, token?: string): Promise<LightMyRequestResponse>;
}

export const PASSWORD = 'Secret123!';

export function samplePass(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    event: { title: 'Harbourside Athletic vs Northgate Rovers', subtitle: 'Premier Division · Matchday 13' },
    venue: { name: 'Quayside Stadium' },
    seat: { section: 'Block 112', row: 'K', seat: '23' },
    next_game: { title: 'Harbourside Athletic vs Northgate Rovers', date: '2026-11-25T15:00:00.000Z' },
    visible_after_ms: 0,
    ...overrides,
  };
}

/**
 * A simulator on a fake clock, ignoring the environment, with fixed randomness (0.5) unless told otherwise. Its
 * requests to /control carry the simulator's key unless they set `x-control-key` themselves.
 */
export function harness(options: CreateWalletSimOptions = {}): Harness {
  let clock = T0;
  const app = createWalletSim({ env: {}, now: () => clock, random: () => 0.5, ...options });
  const request = (inject: InjectOptions) => {
    const url = typeof inject.url === 'string' ? inject.url : '';
    const headers = { ...(inject.headers ?? {}) };
    if (url.startsWith('/control') && !('x-control-key' in headers)) {
      headers['x-control-key'] = app.walletSim.controlKey;
    }
    return app.inject({ ...inject, headers });
  };
  return {
    app,
    advance: (ms) => {
      clock += ms;
    },
    now: () => clock,
    request,
    createWallet: (email, password = PASSWORD) =>
      request({
        method: 'POST',
        url: '/control/wallets',
        payload: { email, password, first_name: 'Test', last_name: email.split('@')[0] ?? 'User' },
      }),
    addPass: (email, pass = samplePass()) =>
      request({ method: 'POST', url: `/control/wallets/${encodeURIComponent(email)}/passes`, payload: pass }),
    login: async (email, password = PASSWORD) => {
      const res = await request({ method: 'POST', url: '/v1/sessions', payload: { email, password } });
      if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
      return (res.json() as { access_token: string }).access_token;
    },
    get: (url, token) => request({ method: 'GET', url, headers: token ? { authorization: `Bearer ${token}` } : {} }),
  };
}
