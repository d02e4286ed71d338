import { randomBytes } from 'node:crypto';
import type { INestApplicationContext } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createContext, createHttpApp } from '../bootstrap.js';
import { type AppConfig, loadConfig } from '../infra/config/config.js';
import { EVENT_STORE, type EventStore } from '../infra/event-store/event-store.port.js';
import { SubscriptionOperations } from '../infra/subscriptions/subscription-operations.js';
import { SubscriptionHostService } from '../infra/subscriptions/subscriptions.module.js';
import { seed } from '../seed.js';
import { ApiDocumentCheck } from './api-document-check.js';
import { createScratchDatabase, testEnv } from './test-database.js';

export interface TestStack {
  baseUrl: string;
  config: AppConfig;
  app: NestFastifyApplication;
  close(): Promise<void>;
}

export interface TestStackOptions {
  /** false: no Redis (the in-process queue, one process's sockets). */
  redis?: boolean;
  /**
   * The product as `npm start` runs it on a machine with only Node: on the embedded PostgreSQL server (a database of
   * its own there) and with no Redis, even where the real services run.
   */
  embedded?: boolean;
  role?: 'all' | 'api';
  env?: Record<string, string>;
  webDist?: string;
  /** Listen on this port instead of any free one. */
  port?: number;
  /** The PostgreSQL server to make the stack's database on (a cluster of the test's own); the run's by default. */
  databaseUrl?: string;
  /** A streaming replica of that server: the stack reads its database there (DATABASE_READ_URL). */
  readReplicaUrl?: string;
}

/** The database of `databaseUrl` on the server of `serverUrl`. */
function sameDatabaseOn(serverUrl: string, databaseUrl: string): string {
  const url = new URL(serverUrl);
  url.pathname = new URL(databaseUrl).pathname;
  return url.toString();
}

/** Config for one test stack: its own database (PostgreSQL when DATABASE_URL is set) and its own Redis prefix. */
export async function testConfig(
  options: TestStackOptions = {},
): Promise<{ config: AppConfig; drop: () => Promise<void> }> {
  const scratch = await createScratchDatabase(
    options.databaseUrl ?? (options.embedded ? testEnv.embeddedUrl : testEnv.databaseUrl),
  );
  const redis = options.redis !== false && !options.embedded && testEnv.redisUrl;
  const config = loadConfig(
    {
      LOG_LEVEL: 'warn',
      DASHBOARD_URL: 'http://localhost:3000',
      REDIS_PREFIX: `t${randomBytes(4).toString('hex')}`,
      DATABASE_URL: scratch.url,
      ...(options.readReplicaUrl ? { DATABASE_READ_URL: sameDatabaseOn(options.readReplicaUrl, scratch.url) } : {}),
      ...(redis ? { REDIS_URL: redis } : {}),
      // Generous limits, so the many calls of one test file from 127.0.0.1 are not throttled (throttle tests lower them).
      THROTTLE_LOGIN_IP: '1000',
      THROTTLE_LOGIN_ACCOUNT: '1000',
      THROTTLE_LOGIN_ACCOUNT_IP: '1000',
      SEED_DEMO_WALLETS: 'false',
      THROTTLE_PUBLIC_IP: '1000',
      THROTTLE_TOPUP_USER: '1000',
      THROTTLE_TOPUP_IP: '1000',
      THROTTLE_WALLET_SIGNIN_USER: '1000',
      THROTTLE_WALLET_SIGNIN_IP: '1000',
      THROTTLE_PIN_IP: '1000',
      THROTTLE_PIN_DEVICE: '1000',
      THROTTLE_MFA_USER: '1000',
      // Tests sign in as the demo admin with the password alone; the admin gate's own tests require a second factor.
      ADMIN_MFA: 'optional',
      // A test file may run longer than a step-up lasts (the step-up tests shorten it).
      STEP_UP_MINUTES: '1440',
      ...options.env,
    },
    // No dashboard build in API tests; the embedded product keeps its e-mails and keys in memory (no DATA_DIR on disk).
    { webDist: options.webDist ?? null, DATA_DIR: options.embedded ? 'memory://' : './data' },
  );
  return { config, drop: () => scratch.drop() };
}

/** The whole product in one process (`npm start`'s shape), listening on a free port, seeded with the demo users. */
export async function startTestStack(options: TestStackOptions = {}): Promise<TestStack> {
  const { config, drop } = await testConfig(options);
  const app = await createHttpApp(config, options.role ?? 'all');
  await app.listen({ port: options.port ?? 0, host: '127.0.0.1' });
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

/**
 * Waits until every subscription has read the whole feed as it stands now (the read models show every change made
 * so far, the reactions have run). Throws after `timeoutMs`.
 */
export async function subscriptionsCaughtUp(app: INestApplicationContext, timeoutMs = 20_000): Promise<void> {
  const store = app.get<EventStore>(EVENT_STORE);
  const operations = app.get(SubscriptionOperations);
  let target = await store.headPosition();
  if (target === null) return;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { subscriptions } = await operations.status();
    const behind = subscriptions.filter(
      (s) => s.checkpoint === null || store.comparePositions(s.checkpoint, target!) < 0,
    );
    if (behind.length === 0) {
      // Reactions append as they catch up (pass claims, payments): caught up means caught up with those too.
      const head = await store.headPosition();
      if (head === null || store.comparePositions(head, target) <= 0) return;
      target = head;
      continue;
    }
    if (Date.now() > deadline) throw new Error(`Subscriptions behind: ${behind.map((s) => s.name).join(', ')}`);
    // Those behind only for events they do not read would move on a moment later; this process's host wakes them now.
    hostOf(app)?.wake(behind.map((s) => s.name));
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Each app's subscription host service, or null for an app that runs none (an API): looked up once. */
const hostServices = new WeakMap<INestApplicationContext, SubscriptionHostService | null>();

function hostOf(app: INestApplicationContext) {
  if (!hostServices.has(app)) {
    let service: SubscriptionHostService | null = null;
    try {
      // Through ModuleRef: a failed app.get() is also logged as an error by Nest, at every poll.
      service = app.get(ModuleRef).get(SubscriptionHostService, { strict: false });
    } catch {
      // This app runs no subscriptions.
    }
    hostServices.set(app, service);
  }
  return hostServices.get(app)?.host ?? null;
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
    const check = await ApiDocumentCheck.for(this.baseUrl);
    const problems = check?.problems(method, path, res.status, res.headers, text) ?? [];
    if (problems.length > 0) {
      throw new Error(`The answer does not match the API document:\n${problems.join('\n')}\n${text.slice(0, 500)}`);
    }
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
      headers: res.headers,
    };
  }

  login(email: string, password: string) {
    return this.request('POST', '/v1/auth', { email, password, token: null });
  }
}
