import { QueueName } from '@seatlink/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { hasRedisServer, type PrivateRedis, startPrivateRedis } from '../../testing/private-redis.js';
import { BullmqJobQueue } from './bullmq-job-queue.js';

/** What a close came to within `ms`: 'closed', or 'hung' when it had not resolved by then. */
const closedWithin = (close: Promise<void>, ms: number) =>
  Promise.race([
    close.then(() => 'closed' as const),
    new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), ms).unref()),
  ]);

// A worker's close waits for ioredis to say its blocking connection ended; a connection waiting out its reconnect
// delay has no socket and never says so (BullMQ's own close then waits for ever). A process asked to stop just after
// Redis came back, or while it is away, must still stop. Each test has a Redis server of its own to kill.
describe.runIf(hasRedisServer())('closing the BullMQ queue after Redis went away', () => {
  let redis: PrivateRedis | undefined;
  afterEach(async () => redis?.kill());

  async function workingQueue(closeBoundMs: number) {
    redis = await startPrivateRedis();
    const warnings: string[] = [];
    const queue = new BullmqJobQueue({
      redisUrl: redis.url,
      prefix: 'close-test',
      closeBoundMs,
      logger: { warn: (m) => warnings.push(m), error: (m) => warnings.push(m) },
    });
    const ran: string[] = [];
    await queue.process(QueueName.Maintenance, async (job) => void ran.push(job.id));
    await queue.process(QueueName.Webhooks, async (job) => void ran.push(job.id));
    await queue.add(QueueName.Maintenance, 'first', {}, { jobId: 'first' });
    await expect.poll(() => ran, { timeout: 10_000 }).toEqual(['first']);
    return { queue, warnings };
  }

  it('closes at once when Redis has just come back, its workers still waiting to reconnect', async () => {
    const { queue, warnings } = await workingQueue(60_000);
    await redis!.kill();
    // Long enough for the workers' connections to back off (200 ms, 400, 800 …), so they wait on a timer.
    await new Promise((r) => setTimeout(r, 1500));
    await redis!.start();
    expect(await closedWithin(queue.close(), 20_000)).toBe('closed');
    expect(warnings.filter((w) => /not closed within/.test(w))).toEqual([]);
  }, 30_000);

  it('closes within its bound while Redis stays away, saying which workers it left behind', async () => {
    const { queue, warnings } = await workingQueue(2000);
    await redis!.kill();
    await new Promise((r) => setTimeout(r, 500));
    expect(await closedWithin(queue.close(), 20_000)).toBe('closed');
    expect(warnings.filter((w) => /not closed within 2000 ms/.test(w)).length).toBeGreaterThan(0);
  }, 30_000);
});
