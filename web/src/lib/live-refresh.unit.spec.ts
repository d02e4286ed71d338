import { QueryObserver } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLiveRefresh } from './live-refresh';
import { createQueryClient } from './create-query-client';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** A query whose reads are counted and answered when the test says so. */
function readsOf(client: ReturnType<typeof createQueryClient>, key: string[]) {
  const answers: Array<() => void> = [];
  let reads = 0;
  const observer = new QueryObserver(client, {
    queryKey: key,
    queryFn: () => {
      reads++;
      return new Promise<number>((resolve) => answers.push(() => resolve(reads)));
    },
  });
  return {
    observer,
    reads: () => reads,
    /** Answers every read waiting. */
    answer: async () => {
      for (const answer of answers.splice(0)) answer();
      await vi.advanceTimersByTimeAsync(0);
    },
  };
}

describe('live refresh', () => {
  it('reads a query on screen once for a burst of pushes, after a short while', async () => {
    const client = createQueryClient();
    const query = readsOf(client, ['accounts']);
    const stop = query.observer.subscribe(() => undefined);
    await query.answer();
    expect(query.reads()).toBe(1);

    const live = createLiveRefresh(client, 300);
    live.refresh(['accounts']);
    await vi.advanceTimersByTimeAsync(200);
    live.refresh(['accounts']);
    live.refresh(['accounts']);
    expect(query.reads()).toBe(1);
    await vi.advanceTimersByTimeAsync(100);
    expect(query.reads()).toBe(2);
    await query.answer();
    await vi.advanceTimersByTimeAsync(1000);
    expect(query.reads()).toBe(2);
    stop();
  });

  it('lets a read under way end, then reads once more: it may have been answered before the change', async () => {
    const client = createQueryClient();
    const query = readsOf(client, ['tickets', 'list']);
    const stop = query.observer.subscribe(() => undefined);
    expect(query.reads()).toBe(1);

    const live = createLiveRefresh(client, 300);
    live.refresh(['tickets'], { now: true });
    live.refresh(['tickets'], { now: true });
    await vi.advanceTimersByTimeAsync(0);
    // Not cancelled and sent again: one read at a time.
    expect(query.reads()).toBe(1);
    await query.answer();
    expect(query.reads()).toBe(2);
    expect(query.observer.getCurrentResult().data).toBe(1);
    await query.answer();
    await live.settled();
    expect(query.reads()).toBe(2);
    expect(query.observer.getCurrentResult().data).toBe(2);
    stop();
  });

  it('after a read of every query, reads again only the one that was under way', async () => {
    const client = createQueryClient();
    const list = readsOf(client, ['tickets', 'list']);
    const notifications = readsOf(client, ['notifications']);
    const stops = [list.observer.subscribe(() => undefined), notifications.observer.subscribe(() => undefined)];
    await notifications.answer();
    expect([list.reads(), notifications.reads()]).toEqual([1, 1]);

    // A connection: every query is read again. The list's first read is still coming in.
    const live = createLiveRefresh(client, 300);
    live.refresh([], { now: true });
    await vi.advanceTimersByTimeAsync(0);
    expect([list.reads(), notifications.reads()]).toEqual([1, 2]);
    await notifications.answer();
    await list.answer();
    // The list is read once more (its read may have been answered before the connection); the notifications are not.
    expect([list.reads(), notifications.reads()]).toEqual([2, 2]);
    await list.answer();
    await live.settled();
    expect([list.reads(), notifications.reads()]).toEqual([2, 2]);
    expect(list.observer.getCurrentResult().data).toBe(2);
    for (const stop of stops) stop();
  });

  it("does not wait on a read no page shows yet (a route loader's prefetch): it ends, and the page is not held", async () => {
    const client = createQueryClient();
    const answers: Array<() => void> = [];
    // The ticket list read ahead of its page, whose code is still coming: a read under way that no observer shows.
    void client.prefetchQuery({
      queryKey: ['tickets', 'list'],
      queryFn: () => new Promise<number>((resolve) => answers.push(() => resolve(1))),
    });
    // Each pass of the refresh invalidates; one that never waits for anything would pass for ever without yielding.
    const invalidate = client.invalidateQueries.bind(client);
    let passes = 0;
    vi.spyOn(client, 'invalidateQueries').mockImplementation((...args) => {
      if (++passes > 20) throw new Error('the refresh keeps passing without waiting for a read');
      return invalidate(...args);
    });

    const live = createLiveRefresh(client, 300);
    live.refresh([], { now: true });
    await live.settled();
    expect(passes).toBe(1);
    // The read ahead is let be (not cut short, not waited for); the page reads the list again when it shows it.
    expect(client.getQueryState(['tickets', 'list'])?.fetchStatus).toBe('fetching');
    for (const answer of answers.splice(0)) answer();
    await vi.advanceTimersByTimeAsync(0);
    expect(client.getQueryData(['tickets', 'list'])).toBe(1);
  });

  it('only marks a query no page shows as stale: it is read when a page shows it again', async () => {
    const client = createQueryClient();
    const query = readsOf(client, ['accounts']);
    const stop = query.observer.subscribe(() => undefined);
    await query.answer();
    stop();

    const live = createLiveRefresh(client, 300);
    live.refresh(['accounts']);
    await vi.advanceTimersByTimeAsync(300);
    await live.settled();
    expect(query.reads()).toBe(1);
    expect(client.getQueryState(['accounts'])?.isInvalidated).toBe(true);
    const again = query.observer.subscribe(() => undefined);
    expect(query.reads()).toBe(2);
    again();
  });
});
