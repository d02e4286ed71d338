/**
 * The request path of the API (one `npm start`-shaped process against PostgreSQL), under 50 connections for 5 s a
 * run (autocannon), each against a bare Fastify GET route answering a small JSON on the same machine, measured beside
 * it in the same round (the order alternates):
 * - `http-me`: an authenticated `GET /v1/me` (session cookie resolved, user read). Goal: ratio ≥ 0.3.
 * - `http-health`: the public `GET /health` (database, Redis and subscription checks).
 * Records requests/s and p99 of both; asserts only that every request was answered 200.
 */
import autocannon from 'autocannon';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, startTestStack, type TestStack } from '../services/server/src/testing/test-app.js';
import { testEnv } from '../services/server/src/testing/test-database.js';
import { entryFromRounds, median, recordResults } from './results.js';
import { fmt, loadAverageAtStart, printTable, ROUNDS, roundOrder } from './support.js';

const CONNECTIONS = 50;
const SECONDS = Number(process.env.BENCH_HTTP_SECONDS ?? 5);

describe.skipIf(!testEnv.databaseUrl)('the API request path', () => {
  let stack: TestStack;
  let cookie: string;
  let bare: FastifyInstance;
  let bareUrl: string;

  beforeAll(async () => {
    stack = await startTestStack({ env: { LOG_LEVEL: 'error' } });
    const user = new ApiClient(stack.baseUrl);
    expect((await user.login('user@seatlink.test', 'User1234!')).status).toBe(200);
    cookie = user.sessionCookie;
    bare = Fastify();
    bare.get('/bare', async () => ({ id: 'b3f1c2d4', email: 'user@example.com', balance: 120, is_admin: false }));
    await bare.listen({ port: 0, host: '127.0.0.1' });
    const address = bare.server.address();
    bareUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/bare`;
  }, 120_000);
  afterAll(async () => {
    await bare?.close();
    await stack?.close();
  });

  const load = (url: string, headers: Record<string, string> = {}) =>
    autocannon({ url, headers, connections: CONNECTIONS, duration: SECONDS });

  async function measure(name: string, path: string, headers: Record<string, string>, goal?: number) {
    const rounds: Array<{ figure: number; baseline: number; p99: number; baselineP99: number; failed: number }> = [];
    for (let r = 0; r < ROUNDS; r++) {
      const result: Record<string, autocannon.Result> = {};
      for (const variant of roundOrder(r, ['bare', 'api'] as const)) {
        result[variant] = await load(variant === 'bare' ? bareUrl : `${stack.baseUrl}${path}`, headers);
      }
      rounds.push({
        figure: result.api!.requests.average,
        baseline: result.bare!.requests.average,
        p99: result.api!.latency.p99,
        baselineP99: result.bare!.latency.p99,
        failed: result.api!.non2xx + result.api!.errors,
      });
      if (result.api!.non2xx > 0) console.log(`GET ${path} answered`, JSON.stringify(result.api!.statusCodeStats));
    }
    expect(
      rounds.map((x) => x.failed),
      `answers other than 200 to GET ${path}`,
    ).toEqual(rounds.map(() => 0));
    printTable(
      `GET ${path}, ${CONNECTIONS} connections, ${SECONDS} s a run`,
      ['round', 'req/s', 'p99 ms', 'bare req/s', 'bare p99 ms', 'ratio'],
      rounds.map((x, i) => [
        String(i + 1),
        fmt.int(x.figure),
        String(x.p99),
        fmt.int(x.baseline),
        String(x.baselineP99),
        fmt.fixed(x.figure / x.baseline, 2),
      ]),
    );
    await recordResults([
      entryFromRounds(
        name,
        {
          unit: 'req/s',
          baselineUnit: 'req/s',
          baselineName: `a bare Fastify JSON GET route, same load (${CONNECTIONS} connections)`,
        },
        rounds,
        {
          ...(goal === undefined ? {} : { goal: { field: 'ratio' as const, atLeast: goal } }),
          p99Ms: median(rounds.map((x) => x.p99)),
          baselineP99Ms: median(rounds.map((x) => x.baselineP99)),
          connections: CONNECTIONS,
          loadAverageAtStart: loadAverageAtStart(),
        },
      ),
    ]);
  }

  it('http-me: GET /v1/me with a session, against a bare Fastify route', async () => {
    await measure('http-me', '/v1/me', { cookie }, 0.3);
  }, 600_000);

  it('http-health: GET /health, against a bare Fastify route', async () => {
    await measure('http-health', '/health', {});
  }, 600_000);
});
