import { randomBytes } from 'node:crypto';
import type { INestApplicationContext } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createContext, createHttpApp } from '../bootstrap.js';
import { type AppConfig, loadConfig } from '../infra/config/config.js';
import { seed } from '../seed.js';
import { createScratchDatabase, testEnv } from './test-database.js';

export interface TestStack {
  baseUrl: string;
  config: AppConfig;
  app: NestFastifyApplication;
  close(): Promise<void>;
}

/** Config for one test stack: its own database (PostgreSQL when DATABASE_URL is set) and its own Redis prefix. */
export async function testConfig(
  options: { redis?: boolean; env?: Record<string, string> } = {},
): Promise<{ config: AppConfig; drop: () => Promise<void> }> {
  const scratch = testEnv.databaseUrl ? await createScratchDatabase(testEnv.databaseUrl) : null;
  const config = loadConfig(
    {
      LOG_LEVEL: 'warn',
      DASHBOARD_URL: 'http://localhost:3000',
      REDIS_PREFIX: `t${randomBytes(4).toString('hex')}`,
      ...(scratch ? { DATABASE_URL: scratch.url } : {}),
      ...(options.redis !== false && testEnv.redisUrl ? { REDIS_URL: testEnv.redisUrl } : {}),
      // Generous limits, so the many calls of one test file from 127.0.0.1 are not throttled (throttle tests lower them).
      THROTTLE_LOGIN_IP: '1000',
      THROTTLE_PUBLIC_IP: '1000',
      ...options.env,
    },
    // No dashboard build in API tests; PGlite in memory (no DATA_DIR on disk) when there is no PostgreSQL.
    { webDist: null, DATA_DIR: scratch ? './data' : 'memory://' },
  );
  return { config, drop: async () => scratch?.drop() };
}

/** The whole product in one process (`npm start`'s shape), listening on a free port, seeded with the demo users. */
export async function startTestStack(
  options: { redis?: boolean; role?: 'all' | 'api'; env?: Record<string, string> } = {},
): Promise<TestStack> {
  const { config, drop } = await testConfig(options);
  const app = await createHttpApp(config, options.role ?? 'all');
  await app.listen({ port: 0, host: '127.0.0.1' });
  if (options.role !== 'api') await seed(app);
  const address = app.getHttpServer().address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    config,
    app,
    close: async () => {
      await app.close();
      await drop();
    },
  };
}

/** A worker (projector, jobs; no HTTP) on an existing stack's database and Redis. */
export async function startTestWorker(config: AppConfig): Promise<INestApplicationContext> {
  const worker = await createContext(config, 'worker');
  await worker.init();
  return worker;
}

/** A tiny cookie-keeping HTTP client for API tests. */
export class ApiClient {
  private cookie = '';
  constructor(readonly baseUrl: string) {}

  get sessionCookie() {
    return this.cookie;
  }

  async request(
    method: string,
    path: string,
    body?: unknown,
    init: { raw?: string; headers?: Record<string, string> } = {},
  ) {
    const headers: Record<string, string> = { ...init.headers };
    if (this.cookie) headers.cookie = this.cookie;
    let payload: string | undefined;
    if (init.raw !== undefined) payload = init.raw;
    else if (body !== undefined) payload = JSON.stringify(body);
    if (payload !== undefined) headers['content-type'] ??= 'application/json';
    const res = await fetch(this.baseUrl + path, { method, headers, body: payload });
    const setCookie = res.headers.getSetCookie();
    for (const c of setCookie) {
      const [pair] = c.split(';');
      if (pair?.startsWith('seatlink_session=')) this.cookie = pair.endsWith('=') ? '' : pair;
    }
    const text = await res.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = text;
    }
    return {
      status: res.status,
      body: json as Record<string, unknown> & { message?: string; code?: string },
      setCookie,
    };
  }

  login(email: string, password: string) {
    return this.request('POST', '/v1/auth', { email, password, token: null });
  }
}
