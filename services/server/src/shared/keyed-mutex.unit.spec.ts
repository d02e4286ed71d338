import { describe, expect, it } from 'vitest';
import { KeyedMutex } from './keyed-mutex.js';

describe('KeyedMutex', () => {
  it('runs the work of one key one at a time, of different keys side by side, and forgets idle keys', async () => {
    const mutex = new KeyedMutex();
    const log: string[] = [];
    const step = (key: string, label: string, ms: number) =>
      mutex.run(key, async () => {
        log.push(`${label} start`);
        await new Promise((r) => setTimeout(r, ms));
        log.push(`${label} end`);
        return label;
      });
    const results = await Promise.all([step('a', 'a1', 20), step('a', 'a2', 1), step('b', 'b1', 5)]);
    expect(results).toEqual(['a1', 'a2', 'b1']);
    expect(log.indexOf('a1 end')).toBeLessThan(log.indexOf('a2 start'));
    expect(log.indexOf('b1 start')).toBeLessThan(log.indexOf('a1 end'));
    expect(mutex.size).toBe(0);
  });

  it('lets the next one in when work fails', async () => {
    const mutex = new KeyedMutex();
    await expect(mutex.run('a', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(mutex.run('a', () => Promise.resolve(1))).resolves.toBe(1);
    expect(mutex.size).toBe(0);
  });
});
