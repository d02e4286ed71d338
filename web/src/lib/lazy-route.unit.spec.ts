import { afterEach, describe, expect, it, vi } from 'vitest';
import { CHUNK_FAILED, CHUNK_TIMEOUT_MS, loadChunk } from './lazy-route';

describe('loadChunk', () => {
  afterEach(() => vi.useRealTimers());

  it('answers the loaded module', async () => {
    await expect(loadChunk(() => Promise.resolve({ page: 1 }))).resolves.toEqual({ page: 1 });
  });

  it("turns a failed load into 'Loading chunk failed'", async () => {
    await expect(loadChunk(() => Promise.reject(new TypeError('Failed to fetch')))).rejects.toThrow(CHUNK_FAILED);
  });

  it('gives up after 120 seconds', async () => {
    vi.useFakeTimers();
    const pending = loadChunk(() => new Promise(() => undefined));
    const settled = expect(pending).rejects.toThrow(CHUNK_FAILED);
    expect(CHUNK_TIMEOUT_MS).toBe(120_000);
    await vi.advanceTimersByTimeAsync(CHUNK_TIMEOUT_MS - 1);
    let done = false;
    void pending.catch(() => (done = true));
    await Promise.resolve();
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await settled;
  });
});
