import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runWhenIdle } from './idle-work';

/** A step over `pieces` pieces of work, each taking `pieceMs` of the (fake) clock; it logs the pieces of each slice. */
function work(pieces: number, pieceMs: number) {
  const slices: number[][] = [];
  let next = 0;
  const step = (hasTime: () => boolean) => {
    const slice: number[] = [];
    slices.push(slice);
    while (next < pieces) {
      slice.push(next++);
      vi.advanceTimersByTime(pieceMs);
      if (!hasTime()) return next >= pieces;
    }
    return true;
  };
  return { step, slices };
}

describe('runWhenIdle', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] }));
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('without requestIdleCallback, runs the work in slices of at most sliceMs, after a short wait each', () => {
    const { step, slices } = work(10, 3);
    runWhenIdle(step, 8);
    expect(slices).toEqual([]); // nothing runs at once
    vi.advanceTimersByTime(50);
    expect(slices).toEqual([[0, 1, 2]]); // 9 ms of work: the slice stops after its third piece
    vi.runAllTimers();
    expect(slices).toEqual([[0, 1, 2], [3, 4, 5], [6, 7, 8], [9]]);
  });

  it('stops when told to, between slices', () => {
    const { step, slices } = work(10, 3);
    const stop = runWhenIdle(step, 8);
    vi.advanceTimersByTime(50);
    stop();
    vi.runAllTimers();
    expect(slices).toEqual([[0, 1, 2]]);
  });

  it('in a browser with requestIdleCallback, works in idle periods and stops when the idle time runs out', () => {
    const idle: Array<(deadline: IdleDeadline) => void> = [];
    const cancelled: number[] = [];
    vi.stubGlobal('window', {
      requestIdleCallback: (run: (deadline: IdleDeadline) => void) => idle.push(run),
      cancelIdleCallback: (handle: number) => cancelled.push(handle),
    });
    const { step, slices } = work(10, 1);
    const stop = runWhenIdle(step, 8);
    expect(idle).toHaveLength(1);
    // An idle period of 2 ms: two pieces, then the rest waits for the next period.
    const until = performance.now() + 2;
    idle.shift()!({ didTimeout: false, timeRemaining: () => Math.max(0, until - performance.now()) });
    expect(slices).toEqual([[0, 1]]);
    // A long idle period: the slice ends at 8 ms, which is when the work is done here.
    idle.shift()!({ didTimeout: false, timeRemaining: () => 50 });
    expect(slices[1]).toEqual([2, 3, 4, 5, 6, 7, 8, 9]);
    expect(idle).toHaveLength(0); // all done: nothing more asked for
    stop();
    expect(cancelled).toHaveLength(1);
  });
});
