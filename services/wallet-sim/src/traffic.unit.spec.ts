import { afterEach, describe, expect, it } from 'vitest';
import { harness, type Harness } from './testing/sim-harness.js';

const EMAIL = 'casey@wallet.test';

describe('wallet-sim traffic: rate limit, failure injection, latency, statistics', () => {
  let h: Harness;
  afterEach(async () => {
    await h.app.close();
  });

  it('answers 429 rate_limited with Retry-After once the global bucket is empty, then refills', async () => {
    h = harness({ rateLimit: { requestsPerSecond: 3 } });
    await h.createWallet(EMAIL);
    const token = await h.login(EMAIL); // 1 of 3
    expect((await h.get('/v1/me', token)).statusCode).toBe(200); // 2
    expect((await h.get('/v1/passes', token)).statusCode).toBe(200); // 3
    const limited = await h.get('/v1/me', token);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ error: 'rate_limited', message: expect.any(String) });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number.isInteger(Number(limited.headers['retry-after']))).toBe(true);
    // Across all callers: a login without a token is limited too.
    const login = await h.request({ method: 'POST', url: '/v1/sessions', payload: { email: EMAIL, password: 'x' } });
    expect(login.statusCode).toBe(429);
    // The control API, health and logos are not limited.
    expect((await h.get('/control/stats')).statusCode).toBe(200);
    expect((await h.get('/health')).statusCode).toBe(200);
    expect((await h.get('/logos/harbourside-athletic.svg')).statusCode).toBe(200);
    // One token flows back in a third of a second.
    h.advance(334);
    expect((await h.get('/v1/me', token)).statusCode).toBe(200);
    expect((await h.get('/v1/me', token)).statusCode).toBe(429);
  });

  it('rounds Retry-After up to whole seconds (slow buckets wait longer)', async () => {
    h = harness({ rateLimit: { requestsPerSecond: 0.25 } });
    expect((await h.get('/v1/me')).statusCode).toBe(401);
    const limited = await h.get('/v1/me');
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBe('4');
  });

  it('changes the rate limit at run time (PUT /control/config) and turns it off with 0', async () => {
    h = harness({ rateLimit: { requestsPerSecond: 1 } });
    expect((await h.get('/v1/me')).statusCode).toBe(401);
    expect((await h.get('/v1/me')).statusCode).toBe(429);
    const put = await h.request({
      method: 'PUT',
      url: '/control/config',
      payload: { rateLimit: { requestsPerSecond: 0 } },
    });
    expect(put.json().rateLimit).toEqual({ requestsPerSecond: 0 });
    for (let n = 0; n < 100; n += 1) expect((await h.get('/v1/me')).statusCode).toBe(401);
  });

  it('fails requests at random with 503 unavailable at errorRate', async () => {
    const draws = [0.1, 0.9, 0.29, 0.31];
    h = harness({ failure: { errorRate: 0.3 }, random: () => draws.shift() ?? 0.99 });
    const statuses = [];
    for (let n = 0; n < 4; n += 1) statuses.push((await h.get('/v1/me')).statusCode);
    expect(statuses).toEqual([503, 401, 503, 401]);
    const failed = await h.get('/v1/me');
    expect(failed.statusCode).toBe(401);
  });

  it('answers 503 with the error body and Retry-After, on /v1 only, and stops at errorRate 0', async () => {
    h = harness({ failure: { errorRate: 1 } });
    await h.createWallet(EMAIL);
    const res = await h.request({ method: 'POST', url: '/v1/sessions', payload: { email: EMAIL, password: 'x' } });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ error: 'unavailable', message: expect.any(String) });
    expect(res.headers['retry-after']).toBe('1');
    expect((await h.get('/health')).statusCode).toBe(200);
    expect((await h.get('/control/config')).json().errorRate).toBe(1);
    await h.request({ method: 'PUT', url: '/control/config', payload: { errorRate: 0 } });
    expect((await h.get('/v1/me')).statusCode).toBe(401);
  });

  it('waits latencyMs before answering /v1 requests only', async () => {
    h = harness({ failure: { latencyMs: { min: 100, max: 120 } } });
    const started = performance.now();
    expect((await h.get('/v1/me')).statusCode).toBe(401);
    expect(performance.now() - started).toBeGreaterThanOrEqual(95);
    const quick = performance.now();
    expect((await h.get('/health')).statusCode).toBe(200);
    expect(performance.now() - quick).toBeLessThan(90);
  });

  it('draws the latency between min and max', () => {
    const draws = [0, 0.999, 0.5];
    h = harness({ failure: { latencyMs: { min: 10, max: 20 } }, random: () => draws.shift() ?? 0 });
    expect([h.app.walletSim.latency(), h.app.walletSim.latency(), h.app.walletSim.latency()]).toEqual([10, 20, 15]);
  });

  it('counts provider requests by route, rate-limited and failed ones, and resets the counts', async () => {
    const draws = [0.9, 0.9, 0.1];
    h = harness({
      rateLimit: { requestsPerSecond: 3 },
      failure: { errorRate: 0.5 },
      random: () => draws.shift() ?? 0.9,
    });
    await h.createWallet(EMAIL);
    const token = await h.login(EMAIL);
    await h.get('/v1/passes?limit=5', token);
    await h.get('/v1/me', token); // injected failure
    await h.get('/v1/me', token); // rate limited
    const stats = (await h.get('/control/stats')).json();
    expect(stats).toEqual({
      requests: {
        total: 4,
        by_route: { 'POST /v1/sessions': 1, 'GET /v1/passes': 1, 'GET /v1/me': 2 },
        by_status: { '200': 2, '503': 1, '429': 1 },
        rate_limited: 1,
        failed: 1,
      },
    });
    const reset = await h.request({ method: 'POST', url: '/control/stats/reset' });
    expect(reset.statusCode).toBe(200);
    expect((await h.get('/control/stats')).json()).toEqual({
      requests: { total: 0, by_route: {}, by_status: {}, rate_limited: 0, failed: 0 },
    });
  });
});
