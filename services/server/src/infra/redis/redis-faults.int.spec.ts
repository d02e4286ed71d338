import { randomUUID } from 'node:crypto';
import type { INestApplicationContext } from '@nestjs/common';
import { type Account, type DistributeResponse, QueueName, SOCKET_PATH, type Ticket } from '@seatlink/contracts';
import type { WalletSimApp } from '@seatlink/wallet-sim';
import { Redis } from 'ioredis';
import { io } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasRedisServer, type PrivateRedis, startPrivateRedis } from '../../testing/private-redis.js';
import { startSplitStack } from '../../testing/split-stack.js';
import { type ApiClient, startTestWorker, subscriptionsCaughtUp, type TestStack } from '../../testing/test-app.js';
import { linkWalletWith, passes, type SimControl, WALLET_PASSWORD } from '../../testing/wallet-fixture.js';
import { DATABASE } from '../db/database.module.js';
import type { Database } from '../db/database.js';
import { JOB_QUEUE, type JobQueue } from '../queue/queue.port.js';
import { periodicSyncKey, SyncWalletAccountJob } from '../../modules/wallet-accounts/sync-wallet-account.job.js';

/** A request must answer within this, whatever Redis does (a bound on hanging, not a measure of speed). */
const ANSWERS_WITHIN_MS = 8000;

/**
 * Redis losing its data, hanging (SIGSTOP: connections open, nothing answered) and going away, under an API process
 * and a worker that use it for jobs, throttles, the provider's pace and live updates. Nothing may hang or stop for
 * good: requests that need Redis answer 503 with Retry-After within a bound, the rest work, `/health` always answers,
 * the periodic syncs come back after a flush, and dashboards are told when live updates stop and start again.
 */
describe.skipIf(!hasRedisServer())('when Redis loses its data, hangs or goes away', () => {
  let redis: PrivateRedis;
  let sim: WalletSimApp;
  let control: SimControl;
  let api: TestStack;
  let worker: INestApplicationContext | null;
  let user: ApiClient;
  let admin: ApiClient;
  let userId: string;
  let tickets: Ticket[];

  const health = async () => {
    const res = await fetch(`${api.baseUrl}/health`, { signal: AbortSignal.timeout(ANSWERS_WITHIN_MS) });
    return res.status;
  };
  const syncCalls = async () => {
    const stats = (await control('GET', '/stats')) as { requests: { by_route: Record<string, number> } };
    return stats.requests.by_route['GET /v1/passes'] ?? 0;
  };
  const forgotPassword = () =>
    fetch(`${api.baseUrl}/v1/forgot-password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'user@seatlink.test' }),
      signal: AbortSignal.timeout(ANSWERS_WITHIN_MS),
    });

  beforeAll(async () => {
    redis = await startPrivateRedis();
    ({ sim, control, api, worker, admin, user, userId } = await startSplitStack({
      REDIS_URL: redis.url,
      REDIS_COMMAND_TIMEOUT_MS: '300',
      WALLET_SYNC_EVERY_MS: '1500',
      JOB_SCHEDULES_CHECK_MS: '500',
    }));
    await admin.request('PUT', `/v1/admin/users/${userId}/credits`, { credits: 100, reason: 'Test' });
    ({ tickets } = await linkWalletWith(user, control, 'redis@wallet.test', passes('redis', 4)));
    await subscriptionsCaughtUp(worker);
  }, 60_000);

  afterAll(async () => {
    redis?.resume();
    await worker?.close();
    await api?.close();
    await sim?.close();
    await redis?.kill();
  });

  it('makes the periodic syncs again when Redis lost its data, and they run', async () => {
    await expect.poll(syncCalls, { timeout: 10_000 }).toBeGreaterThan(1);
    const queue = worker!.get<JobQueue>(JOB_QUEUE);
    expect((await queue.repeatables(QueueName.WalletSync)).size).toBe(1);
    const flusher = new Redis(redis.url);
    // FLUSHALL takes every key at once: the marker gone means the schedules went with it. (Counting the schedules
    // after the flush would race the check that makes them again, every 0.5 s here.)
    await flusher.set('flush-marker', '1');
    await flusher.flushall();
    expect(await flusher.exists('flush-marker')).toBe(0);
    await flusher.quit();
    // Made again from the database within a check, and syncing again.
    await expect.poll(async () => (await queue.repeatables(QueueName.WalletSync)).size, { timeout: 10_000 }).toBe(1);
    await expect
      .poll(async () => [...(await queue.repeatables(QueueName.Maintenance)).keys()].sort(), { timeout: 10_000 })
      .toEqual(expect.arrayContaining(['purge-claim-keys', 'settle-distributions']));
    const after = await syncCalls();
    await expect.poll(syncCalls, { timeout: 15_000 }).toBeGreaterThan(after + 1);
  }, 40_000);

  it('drops a schedule made again for an account deleted meanwhile, at its first run', async () => {
    const queue = worker!.get<JobQueue>(JOB_QUEUE);
    const gone = randomUUID();
    // As a check that read the accounts just before a deletion would make it.
    await queue.add(
      QueueName.WalletSync,
      SyncWalletAccountJob.jobName,
      { accountId: gone, reason: 'periodic' },
      { jobId: periodicSyncKey(gone), repeat: { everyMs: 600_000 } },
    );
    expect((await queue.repeatables(QueueName.WalletSync)).has(periodicSyncKey(gone))).toBe(true);
    await worker!.get(SyncWalletAccountJob).run({ accountId: gone, reason: 'periodic' });
    expect((await queue.repeatables(QueueName.WalletSync)).has(periodicSyncKey(gone))).toBe(false);
  });

  it('says in /health when wallet syncs are overdue', async () => {
    const database = api.app.get<Database>(DATABASE);
    await worker!.close();
    worker = null;
    await database.query(`update wallet_sync_state set last_synced_at = now() - interval '1 hour'`);
    const problems = async () =>
      ((await admin.request('GET', '/v1/admin/health')).body.problems as string[]).join('; ');
    expect(await problems()).toMatch(/1 wallet account\(s\) not synced for over 1 min/);
    await expect.poll(health, { timeout: 5_000 }).toBe(503);
    worker = await startTestWorker(api.config);
    await expect.poll(problems, { timeout: 15_000 }).not.toMatch(/not synced/);
  }, 40_000);

  it('answers while Redis hangs: 503 with Retry-After where a request needs it, the rest as usual', async () => {
    await expect.poll(health, { timeout: 10_000 }).toBe(200);
    const socket = io(api.baseUrl, {
      path: SOCKET_PATH,
      transports: ['websocket'],
      extraHeaders: { cookie: user.sessionCookie },
      reconnection: false,
    });
    const heard: string[] = [];
    socket.on('live.interrupted', () => heard.push('interrupted'));
    socket.on('live.restored', () => heard.push('restored'));
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    try {
      redis.pause();
      // A visitor's e-mail request is queued in Redis: refused at once, with when to come back.
      const forgot = await forgotPassword();
      expect(forgot.status).toBe(503);
      expect(forgot.headers.get('retry-after')).toBe('1');
      expect(((await forgot.json()) as { code: string }).code).toBe('UNAVAILABLE');
      // Distribution needs no Redis: it works.
      const made = await user.request('POST', '/v1/tickets/distribute', { ticket_ids: [tickets[0]!.id] });
      expect(made.status).toBeLessThan(300);
      expect((made.body as unknown as DistributeResponse).distributions).toHaveLength(1);
      // /health answers, degraded (the public status is checked at most once a second).
      await expect.poll(health, { timeout: 5_000 }).toBe(503);
      // The dashboard is told its live updates stopped.
      await expect.poll(() => heard, { timeout: 10_000 }).toEqual(['interrupted']);
    } finally {
      redis.resume();
    }
    await expect.poll(() => heard, { timeout: 10_000 }).toEqual(['interrupted', 'restored']);
    await expect.poll(health, { timeout: 10_000 }).toBe(200);
    expect((await forgotPassword()).status).toBe(200);
    socket.disconnect();
  }, 60_000);

  it('parks nothing when a reaction meets a hung Redis: it waits, and schedules the sync once Redis answers', async () => {
    await control('POST', '/wallets', {
      email: 'later@wallet.test',
      password: WALLET_PASSWORD,
      first_name: 'Lat',
      last_name: 'Er',
    });
    redis.pause();
    let accountId: string;
    try {
      // Linking needs no Redis (the provider's pace falls back to memory); the reaction that schedules its syncs does.
      const linked = await user.request('POST', '/v1/accounts', {
        email: 'later@wallet.test',
        password: WALLET_PASSWORD,
      });
      expect(linked.status).toBeLessThan(300);
      accountId = (linked.body as unknown as Account).id;
      // Longer than a reaction's tries take to park an event (5 tries, a command timeout each).
      await new Promise((r) => setTimeout(r, 6000));
    } finally {
      redis.resume();
    }
    const queue = worker!.get<JobQueue>(JOB_QUEUE);
    await expect
      .poll(async () => (await queue.repeatables(QueueName.WalletSync)).has(periodicSyncKey(accountId)), {
        timeout: 20_000,
      })
      .toBe(true);
    expect(((await admin.request('GET', '/v1/admin/parked-events')).body.parked_events as unknown[]).length).toBe(0);
  }, 60_000);

  it('answers while Redis is away (refused): 503 at once, and works again when it is back', async () => {
    await redis.kill();
    try {
      const forgot = await forgotPassword();
      expect(forgot.status).toBe(503);
      expect(forgot.headers.get('retry-after')).toBe('1');
      // (The public status is checked at most once a second.)
      await expect.poll(health, { timeout: 5_000 }).toBe(503);
    } finally {
      await redis.start();
    }
    await expect.poll(async () => (await forgotPassword()).status, { timeout: 15_000 }).toBe(200);
    await expect.poll(health, { timeout: 15_000 }).toBe(200);
  }, 60_000);
});
