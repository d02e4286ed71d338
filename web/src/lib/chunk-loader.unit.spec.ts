import { describe, expect, it } from 'vitest';
import { chunkLoader } from './chunk-loader';

describe('chunkLoader', () => {
  it('loads once, however often it is asked', async () => {
    let loads = 0;
    const load = chunkLoader(async () => ({ n: ++loads }));
    const [a, b] = await Promise.all([load(), load()]);
    expect(a).toBe(b);
    expect(await load()).toEqual({ n: 1 });
    expect(loads).toBe(1);
  });

  it('tries again after a failed load', async () => {
    let loads = 0;
    const load = chunkLoader(async () => {
      loads++;
      if (loads === 1) throw new Error('Loading chunk failed');
      return 'chunk';
    });
    await expect(load()).rejects.toThrow('Loading chunk failed');
    await expect(load()).resolves.toBe('chunk');
    await expect(load()).resolves.toBe('chunk');
    expect(loads).toBe(2);
  });
});
