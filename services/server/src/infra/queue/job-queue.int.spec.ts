import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { describe } from 'vitest';
import { BullmqJobQueue } from './bullmq-job-queue.js';
import { EmbeddedJobQueue } from './embedded-job-queue.js';
import { jobQueueContract } from './job-queue.contract.js';

// The in-process queue always runs: it is the embedded default.
jobQueueContract('embedded (in-process)', async (logger) => {
  const queue = new EmbeddedJobQueue({ logger });
  return { queue, dispose: () => queue.close() };
});

// BullMQ on the real Redis when REDIS_URL is set (CI always sets it). Every test gets a prefix of its own under one
// prefix per run, so runs and tests never see each other's keys; each test deletes its keys afterwards.
const redisUrl = process.env.REDIS_URL;
const runPrefix = `seatlink-test-${randomUUID().slice(0, 8)}`;
let opened = 0;

describe.skipIf(!redisUrl)('on Redis', () => {
  jobQueueContract('BullMQ', async (logger) => {
    const prefix = `${runPrefix}-${(opened += 1)}`;
    const queue = new BullmqJobQueue({ redisUrl: redisUrl!, prefix, logger });
    return {
      queue,
      dispose: async () => {
        await queue.close();
        await deleteKeys(redisUrl!, `${prefix}:*`);
      },
    };
  });
});

async function deleteKeys(url: string, pattern: string): Promise<void> {
  const redis = new Redis(url);
  try {
    for await (const keys of redis.scanStream({ match: pattern, count: 500 }) as AsyncIterable<string[]>) {
      if (keys.length > 0) await redis.unlink(...keys);
    }
  } finally {
    await redis.quit();
  }
}
