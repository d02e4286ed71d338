import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { NestFactory } from '@nestjs/core';
import { QueueName } from '@seatlink/contracts';
import { describe, expect, it } from 'vitest';
import { BullmqJobQueue } from './bullmq-job-queue.js';
import { EmbeddedJobQueue } from './embedded-job-queue.js';
import { QueueModule, type QueueModuleOptions } from './queue.module.js';
import { JOB_QUEUE, type JobQueue, JobQueueClosedError, type QueuedJob } from './queue.port.js';

const redisUrl = process.env.REDIS_URL;

async function runOneJobThenClose(options: QueueModuleOptions) {
  const app = await NestFactory.createApplicationContext(QueueModule.forRoot(options), { logger: false });
  const queue = app.get<JobQueue>(JOB_QUEUE);
  const runs: QueuedJob[] = [];
  await queue.process(QueueName.Maintenance, async (job) => {
    runs.push(job);
  });
  await queue.add(QueueName.Maintenance, 'ping', { ok: true });
  await expect.poll(() => runs.length, { timeout: 5_000 }).toBe(1);
  await app.close();
  // Closed with the application.
  await expect(queue.add(QueueName.Maintenance, 'late', {})).rejects.toBeInstanceOf(JobQueueClosedError);
  return { queue, runs };
}

describe('QueueModule', () => {
  it('provides the in-process queue without a Redis URL and closes it with the application', async () => {
    const { queue, runs } = await runOneJobThenClose({});
    expect(queue).toBeInstanceOf(EmbeddedJobQueue);
    expect(runs[0]).toMatchObject({ name: 'ping', data: { ok: true }, attempt: 1 });
  });

  it.skipIf(!redisUrl)('provides BullMQ with a Redis URL and closes it with the application', async () => {
    const prefix = `seatlink-test-${randomUUID().slice(0, 8)}`;
    const { queue, runs } = await runOneJobThenClose({ redisUrl, prefix });
    expect(queue).toBeInstanceOf(BullmqJobQueue);
    expect(runs[0]).toMatchObject({ name: 'ping', data: { ok: true }, attempt: 1 });
    const { Redis } = await import('ioredis');
    const redis = new Redis(redisUrl!);
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.unlink(...keys);
    await redis.quit();
  });
});
