import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, parseLatency, resolveOptions } from './config.js';

describe('wallet-sim configuration', () => {
  it('defaults: 15-minute arrival, 1-hour tokens, 50 requests a second, no failures', () => {
    const resolved = resolveOptions({ env: {} });
    expect(resolved.config).toEqual(DEFAULT_CONFIG);
    expect(resolved.config).toEqual({
      arrivalDelayMaxMs: 900_000,
      tokenTtlMs: 3_600_000,
      rateLimit: { requestsPerSecond: 50 },
      failure: { errorRate: 0, latencyMs: { min: 0, max: 0 } },
    });
    // No key given: a random one (256 bits), never an open control API.
    expect(resolved.controlKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(resolveOptions({ env: {} }).controlKey).not.toBe(resolved.controlKey);
    expect(resolved.seedDemo).toBe(false);
  });

  it('reads the WALLET_SIM_* environment', () => {
    const resolved = resolveOptions({
      env: {
        WALLET_SIM_ARRIVAL_DELAY_MAX_MS: '5000',
        WALLET_SIM_TOKEN_TTL_MS: '60000',
        WALLET_SIM_RATE_LIMIT_RPS: '10',
        WALLET_SIM_ERROR_RATE: '0.1',
        WALLET_SIM_LATENCY_MS: '50-250',
        WALLET_SIM_CONTROL_KEY: 'key-from-the-env-0001',
      },
    });
    expect(resolved.config).toEqual({
      arrivalDelayMaxMs: 5_000,
      tokenTtlMs: 60_000,
      rateLimit: { requestsPerSecond: 10 },
      failure: { errorRate: 0.1, latencyMs: { min: 50, max: 250 } },
    });
    expect(resolved.controlKey).toBe('key-from-the-env-0001');
  });

  it('lets options override the environment', () => {
    const resolved = resolveOptions({
      env: {
        WALLET_SIM_TOKEN_TTL_MS: '60000',
        WALLET_SIM_ERROR_RATE: '0.5',
        WALLET_SIM_CONTROL_KEY: 'key-from-the-env-0001',
      },
      tokenTtlMs: 1_000,
      failure: { errorRate: 0 },
      controlKey: 'key-from-the-options',
    });
    expect(resolved.config.tokenTtlMs).toBe(1_000);
    expect(resolved.config.failure.errorRate).toBe(0);
    expect(resolved.controlKey).toBe('key-from-the-options');
  });

  it('ignores empty variables', () => {
    expect(resolveOptions({ env: { WALLET_SIM_TOKEN_TTL_MS: '', WALLET_SIM_LATENCY_MS: ' ' } }).config).toEqual(
      DEFAULT_CONFIG,
    );
  });

  it('reads latency as min-max or a single number', () => {
    expect(parseLatency('100-300')).toEqual({ min: 100, max: 300 });
    expect(parseLatency('75')).toEqual({ min: 75, max: 75 });
    expect(() => parseLatency('fast')).toThrow(/min-max/);
  });

  it.each([
    [{ WALLET_SIM_ERROR_RATE: '2' }],
    [{ WALLET_SIM_ERROR_RATE: 'often' }],
    [{ WALLET_SIM_TOKEN_TTL_MS: '0' }],
    [{ WALLET_SIM_RATE_LIMIT_RPS: '-5' }],
    [{ WALLET_SIM_LATENCY_MS: '300-100' }],
    [{ WALLET_SIM_ARRIVAL_DELAY_MAX_MS: '1.5' }],
    [{ WALLET_SIM_CONTROL_KEY: 'short' }],
    [{ WALLET_SIM_CONTROL_KEY: 'sixteen chars and a space' }],
  ])('refuses %j', (env) => {
    expect(() => resolveOptions({ env })).toThrow();
  });
});
