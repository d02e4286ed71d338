import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureOutput } from '../../testing/capture-output.js';
import { hasRedisServer, type PrivateRedis, startPrivateRedis } from '../../testing/private-redis.js';
import { ApiClient, startTestStack, type TestStack } from '../../testing/test-app.js';
import { MetricsServer } from '../metrics/metrics.module.js';

/** The command bound of this test: long, as a production setting may be, so that waiting it out cannot pass unseen. */
const COMMAND_TIMEOUT_MS = 5000;

/**
 * Redis hung (SIGSTOP: connections open, nothing answered) under the whole product. Once one call of a client has
 * timed out, its breaker fails the client's calls at once: sign-in (counted in Redis) answers without waiting out the
 * command bound, a visitor's e-mail request answers 503 at once, `/v1/admin/health` and `/metrics` say so, the log says
 * it once; when Redis answers again a probe closes the breaker and the counts go to Redis again.
 */
describe.skipIf(!hasRedisServer())('the Redis breaker, when Redis hangs', () => {
  let redis: PrivateRedis;
  let stack: TestStack;
  let admin: ApiClient;
  let metricsUrl: string;

  beforeAll(async () => {
    redis = await startPrivateRedis();
    stack = await startTestStack({
      env: {
        REDIS_URL: redis.url,
        REDIS_COMMAND_TIMEOUT_MS: String(COMMAND_TIMEOUT_MS),
        REDIS_BREAKER_OPEN_MS: '1000',
        METRICS_PORT: '0',
      },
    });
    metricsUrl = `http://127.0.0.1:${stack.app.get(MetricsServer).port}/metrics`;
    admin = new ApiClient(stack.baseUrl);
    expect((await admin.login('admin@seatlink.test', 'Admin123!')).status).toBe(200);
  }, 120_000);

  afterAll(async () => {
    redis?.resume();
    await stack?.close();
    await redis?.kill();
  });

  const signIn = async (password = 'User1234!') => {
    const started = performance.now();
    const { status } = await new ApiClient(stack.baseUrl).login('user@seatlink.test', password);
    return { status, ms: Math.round(performance.now() - started) };
  };
  const forgotPassword = async () => {
    const started = performance.now();
    const res = await fetch(`${stack.baseUrl}/v1/forgot-password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'user@seatlink.test' }),
      signal: AbortSignal.timeout(4 * COMMAND_TIMEOUT_MS),
    });
    return { status: res.status, ms: Math.round(performance.now() - started) };
  };
  const adminHealth = async () =>
    (await admin.request('GET', '/v1/admin/health')).body as { redisBreaker: string; problems: string[] };
  /** The series of a metric that name one client, as `{labels} value` lines. */
  const series = async (metric: string, client: string) =>
    (await (await fetch(metricsUrl)).text())
      .split('\n')
      .filter((l) => l.startsWith(`${metric}{`) && l.includes(`client="${client}"`));
  /** The state of one client's breaker, as /metrics says: the state whose series reads 1. */
  const metricState = async (client: string) =>
    (await series('seatlink_redis_breaker_state', client))
      .filter((l) => l.endsWith(' 1'))
      .map((l) => /state="([^"]+)"/.exec(l)![1])
      .join(',');
  const rejections = async (client: string) =>
    Number((await series('seatlink_redis_breaker_rejections_total', client))[0]?.split(' ').at(-1) ?? 0);

  it('answers sign-ins without waiting on a hung Redis once a call timed out, and closes when Redis answers', async () => {
    expect(await signIn()).toMatchObject({ status: 200 });
    expect(await metricState('throttle')).toBe('closed');
    expect((await adminHealth()).redisBreaker).toBe('closed');

    const { log, result } = await captureOutput(async () => {
      redis.pause();
      try {
        // The first attempt's count meets the hung Redis and waits out the bound once: the breaker opens.
        const first = await signIn();
        expect(first.status).toBe(200);
        expect(await metricState('throttle')).toMatch(/^(open|half-open)$/);
        // Every attempt from now on is counted in this process's memory at once (three counts each, and the
        // account's count forgiven): none waits for the bound, let alone for its three counts.
        const after: number[] = [];
        for (let i = 0; i < 5; i++) {
          const attempt = await signIn();
          expect(attempt.status).toBe(200);
          after.push(attempt.ms);
        }
        for (const ms of after) expect(ms).toBeLessThan(COMMAND_TIMEOUT_MS);
        expect(await signIn('wrong password')).toMatchObject({ status: 401 });
        expect(await rejections('throttle')).toBeGreaterThan(0);

        // A visitor's e-mail request waits for a job add. The queue's client has a breaker of its own, opened by
        // whichever of its calls met the hung Redis first (the first request, or the job counts a scrape above
        // read): from then on the request is refused at once, with when to come back.
        const firstForgot = await forgotPassword();
        expect(firstForgot.status).toBe(503);
        const forgot = await forgotPassword();
        expect(forgot.status).toBe(503);
        expect(forgot.ms).toBeLessThan(COMMAND_TIMEOUT_MS);

        const health = await adminHealth();
        expect(health.redisBreaker).toMatch(/^(open|half-open)$/);
        expect(health.problems.join('; ')).toMatch(/the calls of [^;]*throttle[^;]* fail at once/);
        return { first: first.ms, after, forgot: [firstForgot.ms, forgot.ms] };
      } finally {
        redis.resume();
      }
    });
    console.info(`sign-in while Redis hangs (bound ${COMMAND_TIMEOUT_MS} ms): ${JSON.stringify(result)} ms`);
    // Opened once, however many calls it refused.
    expect(log.match(/Redis \(throttle\) did not answer within/g)).toHaveLength(1);

    // A probe finds Redis answering again (at most the open time plus a probe later).
    await expect.poll(() => metricState('throttle'), { timeout: 3 * COMMAND_TIMEOUT_MS }).toBe('closed');
    await expect
      .poll(async () => (await adminHealth()).redisBreaker, { timeout: 3 * COMMAND_TIMEOUT_MS })
      .toBe('closed');
    // The counts are in Redis again: a failed attempt leaves its count there.
    const direct = new Redis(redis.url);
    try {
      const key = `${stack.config.REDIS_PREFIX}:throttle:login-account-ip:user@seatlink.test|127.0.0.1`;
      await direct.del(key);
      expect(await signIn('wrong password')).toMatchObject({ status: 401 });
      expect(await direct.get(key)).toBe('1');
    } finally {
      await direct.quit();
    }
    expect((await forgotPassword()).status).toBe(200);
  }, 120_000);
});
