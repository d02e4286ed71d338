import { afterEach, describe, expect, it, vi } from 'vitest';
import { readAgainUntilRead } from './read-again';

afterEach(() => vi.useRealTimers());

describe('readAgainUntilRead', () => {
  it('tries again after a failure, waiting longer each time, until it reads', async () => {
    vi.useFakeTimers();
    const answers = [false, false, true];
    const read = vi.fn(async () => answers.shift()!);
    const done = readAgainUntilRead(read, () => true, { firstWaitMs: 100 });

    await vi.advanceTimersByTimeAsync(0);
    expect(read).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(99);
    expect(read).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(read).toHaveBeenCalledTimes(2);
    // The second wait is twice the first.
    await vi.advanceTimersByTimeAsync(199);
    expect(read).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(await done).toBe(true);
    expect(read).toHaveBeenCalledTimes(3);
  });

  it('gives up after its tries', async () => {
    vi.useFakeTimers();
    const read = vi.fn(async () => false);
    const done = readAgainUntilRead(read, () => true, { tries: 3, firstWaitMs: 10 });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await done).toBe(false);
    expect(read).toHaveBeenCalledTimes(3);
  });

  it('stops once it is no longer current (a newer connection reads for itself)', async () => {
    vi.useFakeTimers();
    let current = true;
    const read = vi.fn(async () => {
      current = false;
      return false;
    });
    const done = readAgainUntilRead(read, () => current, { firstWaitMs: 10 });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await done).toBe(false);
    expect(read).toHaveBeenCalledTimes(1);
  });
});
