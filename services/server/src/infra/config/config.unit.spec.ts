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

  it('refuses a malformed value with a message naming it', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ DASHBOARD_URL: 'not a url' })).toThrow(/DASHBOARD_URL/);
  });
});
