import { QueueName } from '@seatlink/contracts';
import { afterEach, beforeEach, describe, expect, it, type Mock, vi } from 'vitest';
import { type JobHandler, type JobQueue, JobQueueClosedError, type QueuedJob } from './queue.port.js';

export interface JobQueueSubject {
  queue: JobQueue;
  /** Closes the queue (again: close is idempotent) and removes whatever the adapter left behind. */
  dispose(): Promise<void>;
}

/** A logger the suite can count calls of; adapters take it in place of Nest's Logger. */
export interface SpyLogger {
  error: Mock<(message: string, stack?: string) => void>;
  warn: Mock<(message: string) => void>;
}

/** Opens a fresh, empty queue for one test. */
export type OpenJobQueue = (logger: SpyLogger) => Promise<JobQueueSubject>;

interface Run extends QueuedJob {
  /** performance.now() when the handler started. */
  at: number;
}

const Q = QueueName.Maintenance;
const OTHER = QueueName.WalletSync;

/**
 * Timers may fire a millisecond early by another clock, and Redis keeps times in whole milliseconds: lower bounds on
 * waits allow this much. No test bounds a wait from above.
 */
const SLACK_MS = 5;
const POLL = { timeout: 5_000, interval: 10 };

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function recorder(behaviour: (job: QueuedJob) => Promise<void> | void = () => undefined) {
  const runs: Run[] = [];
  const handler: JobHandler = async (job) => {
    runs.push({ ...job, at: performance.now() });
    await behaviour(job);
  };
  return { runs, handler };
}

function gaps(runs: readonly Run[]): number[] {
  return runs.slice(1).map((run, i) => run.at - runs[i]!.at);
}

/** The behaviour every job-queue adapter must show. */
export function jobQueueContract(name: string, open: OpenJobQueue) {
  describe(`job queue contract: ${name}`, () => {
    let subject: JobQueueSubject | undefined;
    let queue: JobQueue;
    let logger: SpyLogger;

    beforeEach(async () => {
      logger = { error: vi.fn(), warn: vi.fn() };
      subject = await open(logger);
      queue = subject.queue;
    });
    afterEach(async () => {
      await subject?.dispose();
      subject = undefined;
    });

    /** Error logs that name this job id. */
    const errorsAbout = (jobId: string) => logger.error.mock.calls.filter(([message]) => message.includes(jobId));

    it('runs a job with its name and data (as JSON), an id and attempt 1, not resumed', async () => {
      const { runs, handler } = recorder();
      await queue.process(Q, handler);
      await queue.add(Q, 'sync-account', { accountId: 'a-1', tickets: [1, 2], at: new Date(0), nothing: undefined });
      await expect.poll(() => runs.length, POLL).toBe(1);
      expect(runs[0]).toMatchObject({
        name: 'sync-account',
        data: { accountId: 'a-1', tickets: [1, 2], at: '1970-01-01T00:00:00.000Z' },
        attempt: 1,
        resumed: false,
      });
      expect(runs[0]!.data).not.toHaveProperty('nothing');
      expect(runs[0]!.id).toEqual(expect.any(String));
      expect(runs[0]!.id).not.toBe('');
    });

    it('counts the jobs of a queue by state: waiting, delayed, and failed once given up', async () => {
      expect(await queue.counts(Q)).toEqual({ waiting: 0, active: 0, delayed: 0, failed: 0 });
      await queue.add(Q, 'now', {});
      await queue.add(Q, 'later', {}, { delayMs: 60_000 });
      await queue.add(OTHER, 'elsewhere', {});
      expect(await queue.counts(Q)).toMatchObject({ waiting: 1, delayed: 1, failed: 0 });
      await queue.process(Q, () => Promise.reject(new Error('broken')));
      await expect.poll(async () => (await queue.counts(Q)).failed, POLL).toBe(1);
      expect(await queue.counts(Q)).toMatchObject({ waiting: 0, active: 0, delayed: 1 });
      expect(await queue.counts(OTHER)).toMatchObject({ waiting: 1, failed: 0 });
    });

    it('keeps jobs added before a handler exists, and gives each queue its own jobs', async () => {
      await queue.add(Q, 'purge', { q: 'maintenance' });
      await queue.add(OTHER, 'sync', { q: 'wallet-sync' });
      const maintenance = recorder();
      const walletSync = recorder();
      await queue.process(Q, maintenance.handler);
      await queue.process(OTHER, walletSync.handler);
      await expect.poll(() => maintenance.runs.length + walletSync.runs.length, POLL).toBe(2);
      expect(maintenance.runs.map((r) => [r.name, r.data])).toEqual([['purge', { q: 'maintenance' }]]);
      expect(walletSync.runs.map((r) => [r.name, r.data])).toEqual([['sync', { q: 'wallet-sync' }]]);
    });

    it('runs a delayed job no earlier than its delay', async () => {
      const { runs, handler } = recorder();
      await queue.process(Q, handler);
      const t0 = performance.now();
      await queue.add(Q, 'later', {}, { delayMs: 150 });
      await queue.add(Q, 'now', {});
      await expect.poll(() => runs.length, POLL).toBe(2);
      expect(runs.map((r) => r.name)).toEqual(['now', 'later']);
      expect(runs[1]!.at - t0).toBeGreaterThanOrEqual(150 - SLACK_MS);
    });

    it('waits out delays and rhythms longer than a timer holds (24.8 days)', async () => {
      const { runs, handler } = recorder();
      await queue.process(Q, handler);
      const days = (n: number) => n * 24 * 3600 * 1000;
      await queue.add(Q, 'in-a-month', {}, { delayMs: days(30) });
      await queue.add(Q, 'every-forty-days', {}, { repeat: { everyMs: days(40) }, delayMs: days(40) });
      await sleep(300);
      expect(runs).toEqual([]);
    });

    it('repeats a job every N ms until it is removed', async () => {
      const { runs, handler } = recorder();
      await queue.process(Q, handler);
      await queue.add(Q, 'tick', { n: 1 }, { repeat: { everyMs: 40 } });
      await expect.poll(() => runs.length, POLL).toBeGreaterThanOrEqual(3);
      expect(await queue.removeRepeatable(Q, 'tick')).toBe(true);
      const count = runs.length;
      await sleep(250);
      // A run already due when the schedule went may still start (BullMQ); nothing after it.
      expect(runs.length).toBeLessThanOrEqual(count + 1);
      expect(runs.every((r) => r.name === 'tick' && (r.data as { n: number }).n === 1)).toBe(true);
      expect(new Set(runs.map((r) => r.id)).size).toBe(runs.length);
      expect(await queue.removeRepeatable(Q, 'tick')).toBe(false);
    });

    it('upserts a repeatable job: adding it again replaces its data and does not double it', async () => {
      await queue.add(Q, 'tick', { v: 1 }, { repeat: { everyMs: 100 } });
      await queue.add(Q, 'tick', { v: 2 }, { repeat: { everyMs: 100 } });
      const { runs, handler } = recorder();
      await queue.process(Q, handler);
      await expect.poll(() => runs.length, POLL).toBeGreaterThanOrEqual(2);
      await sleep(300);
      // About 5 runs in ~450 ms (the first at once); a doubled schedule would make about 10.
      expect(runs.length).toBeLessThanOrEqual(7);
      expect(runs.map((r) => r.data)).toEqual(runs.map(() => ({ v: 2 })));
    });

    it('lists its repeating schedules by key, with their rhythm, and not a removed one', async () => {
      await queue.add(Q, 'report', { club: 'a' }, { jobId: 'report-a', repeat: { everyMs: 60_000 } });
      await queue.add(Q, 'tick', {}, { repeat: { everyMs: 30_000 }, delayMs: 10_000 });
      await queue.add(OTHER, 'elsewhere', {}, { repeat: { everyMs: 45_000 } });
      await queue.add(Q, 'once', {}, { jobId: 'once-x', delayMs: 60_000 });
      const listed = await queue.repeatables(Q);
      expect([...listed.keys()].sort()).toEqual(['report-a', 'tick']);
      expect(listed.get('report-a')?.everyMs).toBe(60_000);
      expect(listed.get('tick')?.nextAt).toBeGreaterThan(Date.now());
      expect(await queue.removeRepeatable(Q, 'tick')).toBe(true);
      expect([...(await queue.repeatables(Q)).keys()]).toEqual(['report-a']);
      expect([...(await queue.repeatables(OTHER)).keys()]).toEqual(['elsewhere']);
    });

    it('keys a repeatable job by its jobId when given', async () => {
      const { runs, handler } = recorder();
      await queue.process(Q, handler);
      await queue.add(Q, 'report', { club: 'a' }, { jobId: 'report-a', repeat: { everyMs: 30 } });
      await queue.add(Q, 'report', { club: 'b' }, { jobId: 'report-b', repeat: { everyMs: 30 } });
      await expect.poll(() => new Set(runs.map((r) => (r.data as { club: string }).club)).size, POLL).toBe(2);
      expect(await queue.removeRepeatable(Q, 'report')).toBe(false);
      expect(await queue.removeRepeatable(Q, 'report-a')).toBe(true);
      expect(await queue.removeRepeatable(Q, 'report-b')).toBe(true);
    });

    it('stops repeating when the queue is closed', async () => {
      const { runs, handler } = recorder();
      await queue.process(Q, handler);
      await queue.add(Q, 'tick', {}, { repeat: { everyMs: 30 } });
      await expect.poll(() => runs.length, POLL).toBeGreaterThanOrEqual(2);
      await queue.close();
      const count = runs.length;
      await sleep(150);
      expect(runs.length).toBe(count);
    });

    it('retries a failing job with fixed backoff: attempts 1..3, the same id, waits respected', async () => {
      const { runs, handler } = recorder((job) => {
        if (job.attempt < 3) throw new Error(`flaky ${job.attempt}`);
      });
      await queue.process(Q, handler);
      await queue.add(Q, 'flaky', { x: 1 }, { attempts: 3, backoff: { type: 'fixed', delayMs: 50 } });
      await expect.poll(() => runs.length, POLL).toBe(3);
      expect(runs.map((r) => r.attempt)).toEqual([1, 2, 3]);
      expect(new Set(runs.map((r) => r.id)).size).toBe(1);
      expect(runs.map((r) => r.data)).toEqual([{ x: 1 }, { x: 1 }, { x: 1 }]);
      for (const gap of gaps(runs)) expect(gap).toBeGreaterThanOrEqual(50 - SLACK_MS);
      await sleep(150);
      expect(runs.length).toBe(3);
      expect(logger.error).not.toHaveBeenCalled();
    });

    it('gives every try the data as added, whatever an earlier try did to it', async () => {
      const { runs, handler } = recorder((job) => {
        const data = job.data as { items: string[] };
        const seen = [...data.items];
        data.items.push('changed');
        if (job.attempt === 1) throw new Error('first try fails');
        expect(seen).toEqual(['a']);
      });
      await queue.process(Q, handler);
      await queue.add(Q, 'mutates', { items: ['a'] }, { attempts: 2 });
      await expect.poll(() => runs.length, POLL).toBe(2);
      await sleep(50);
      expect(logger.error).not.toHaveBeenCalled();
    });

    it('waits delayMs * 2^(n-1) after the n-th failure with exponential backoff', async () => {
      const { runs, handler } = recorder((job) => {
        if (job.attempt < 3) throw new Error('not yet');
      });
      await queue.process(Q, handler);
      await queue.add(Q, 'flaky', {}, { attempts: 4, backoff: { type: 'exponential', delayMs: 40 } });
      await expect.poll(() => runs.length, POLL).toBe(3);
      const [first, second] = gaps(runs);
      expect(first).toBeGreaterThanOrEqual(40 - SLACK_MS);
      expect(second).toBeGreaterThanOrEqual(80 - SLACK_MS);
    });

    it('tries a job that always throws exactly `attempts` times, then gives up and logs it once', async () => {
      const { runs, handler } = recorder((job) => {
        throw new Error(`boom ${job.name}`);
      });
      await queue.process(Q, handler);
      await queue.add(Q, 'doomed', {}, { jobId: 'doomed-1', attempts: 3, backoff: { type: 'fixed', delayMs: 20 } });
      await queue.add(Q, 'once', {}, { jobId: 'once-1' });
      await expect.poll(() => errorsAbout('doomed-1').length, POLL).toBe(1);
      await expect.poll(() => errorsAbout('once-1').length, POLL).toBe(1);
      await sleep(200);
      expect(runs.filter((r) => r.name === 'doomed').map((r) => r.attempt)).toEqual([1, 2, 3]);
      expect(runs.filter((r) => r.name === 'once').map((r) => r.attempt)).toEqual([1]);
      expect(errorsAbout('doomed-1')).toHaveLength(1);
      expect(errorsAbout('once-1')).toHaveLength(1);
      const [message, stack] = errorsAbout('doomed-1')[0]!;
      expect(message).toContain('doomed');
      expect(message).toContain('boom doomed');
      expect(stack).toContain('boom doomed');
    });

    it('de-duplicates by jobId while the job waits or is delayed', async () => {
      await queue.add(Q, 'sync', { n: 1 }, { jobId: 'sync-a1', delayMs: 80 });
      await queue.add(Q, 'sync', { n: 2 }, { jobId: 'sync-a1' });
      await queue.add(Q, 'sync', { n: 3 }, { jobId: 'sync-a1', delayMs: 10 });
      const { runs, handler } = recorder();
      await queue.process(Q, handler);
      await expect.poll(() => runs.length, POLL).toBe(1);
      await sleep(150);
      expect(runs.map((r) => [r.id, r.data])).toEqual([['sync-a1', { n: 1 }]]);
    });

    it('de-duplicates by jobId while the job runs, and frees the id once it is done', async () => {
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const { runs, handler } = recorder(async (job) => {
        if ((job.data as { n: number }).n === 1) await gate;
      });
      await queue.process(Q, handler);
      await queue.add(Q, 'sync', { n: 1 }, { jobId: 'sync-a2' });
      await expect.poll(() => runs.length, POLL).toBe(1);
      await queue.add(Q, 'sync', { n: 2 }, { jobId: 'sync-a2' });
      await sleep(50);
      release();
      // Once the first has finished the id is free again; until then an add is a no-op, so keep adding.
      await expect
        .poll(async () => {
          if (runs.length < 2) await queue.add(Q, 'sync', { n: 3 }, { jobId: 'sync-a2' });
          return runs.length;
        }, POLL)
        .toBeGreaterThanOrEqual(2);
      expect(runs.map((r) => (r.data as { n: number }).n)).toEqual([1, 3]);
    });

    it('runs at most `concurrency` jobs of a queue at once (default 1)', async () => {
      const active: Partial<Record<QueueName, number>> = { [Q]: 0, [OTHER]: 0 };
      const most: Partial<Record<QueueName, number>> = { [Q]: 0, [OTHER]: 0 };
      let done = 0;
      const busy = (queueName: QueueName) => async () => {
        active[queueName] = (active[queueName] ?? 0) + 1;
        most[queueName] = Math.max(most[queueName] ?? 0, active[queueName]);
        await sleep(40);
        active[queueName] = (active[queueName] ?? 0) - 1;
        done += 1;
      };
      for (let i = 0; i < 5; i += 1) {
        await queue.add(Q, 'work', { i });
        await queue.add(OTHER, 'work', { i });
      }
      await queue.process(Q, busy(Q), { concurrency: 2 });
      await queue.process(OTHER, busy(OTHER));
      await expect.poll(() => done, POLL).toBe(10);
      expect(most[Q]).toBe(2);
      expect(most[OTHER]).toBe(1);
    });

    it('waits on close for running handlers, then refuses new jobs; close is idempotent', async () => {
      let finished = false;
      const { runs, handler } = recorder(async () => {
        await sleep(100);
        finished = true;
      });
      await queue.process(Q, handler);
      await queue.add(Q, 'slow', {});
      await expect.poll(() => runs.length, POLL).toBe(1);
      await queue.close();
      expect(finished).toBe(true);
      await expect(queue.add(Q, 'late', {})).rejects.toBeInstanceOf(JobQueueClosedError);
      await expect(queue.removeRepeatable(Q, 'late')).rejects.toBeInstanceOf(JobQueueClosedError);
      await expect(queue.close()).resolves.toBeUndefined();
    });

    it('refuses a second handler for a queue and options BullMQ would reject or misread', async () => {
      await queue.process(Q, async () => undefined);
      await expect(queue.process(Q, async () => undefined)).rejects.toThrow(/already has a handler/);
      await expect(queue.add(Q, 'x', {}, { jobId: '42' })).rejects.toBeInstanceOf(RangeError);
      await expect(queue.add(Q, 'x', {}, { jobId: 'a:b' })).rejects.toBeInstanceOf(RangeError);
      await expect(queue.add(Q, 'x', {}, { attempts: 0 })).rejects.toBeInstanceOf(RangeError);
      await expect(queue.add(Q, 'x', {}, { repeat: { everyMs: 0 } })).rejects.toBeInstanceOf(RangeError);
    });
  });
}
