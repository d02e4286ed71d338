import { describe, expect, it } from 'vitest';
import { inTurns } from './in-turns.js';

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('inTurns', () => {
  it('runs at most `atOnce` at a time, in order, each turn after every run of the one before has ended', async () => {
    const log: string[] = [];
    let running = 0;
    let most = 0;
    // The first of each turn is the slowest: a pool that starts the next as soon as one ends would start 'd' early.
    const ms: Record<string, number> = { a: 30, b: 1, c: 1, d: 30, e: 1 };
    await inTurns(['a', 'b', 'c', 'd', 'e'], 2, async (item) => {
      running++;
      most = Math.max(most, running);
      log.push(`start ${item}`);
      await tick(ms[item]!);
      log.push(`end ${item}`);
      running--;
    });
    expect(most).toBe(2);
    expect(log.filter((l) => l.startsWith('start'))).toEqual(['start a', 'start b', 'start c', 'start d', 'start e']);
    expect(log.indexOf('start c')).toBeGreaterThan(log.indexOf('end a'));
    expect(log.indexOf('start e')).toBeGreaterThan(log.indexOf('end d'));
    expect(log.filter((l) => l.startsWith('end'))).toHaveLength(5);
  });

  it('fails with the first failure of its turn once the whole turn has settled, and starts no later turn', async () => {
    const ended: string[] = [];
    const started: string[] = [];
    const failing = inTurns(['slow', 'first', 'second', 'later'], 3, async (item) => {
      started.push(item);
      if (item === 'slow') return tick(20).then(() => void ended.push('slow'));
      // 'second' fails before 'first' does: the one answered is the first in the items' order.
      if (item === 'first') return tick(5).then(() => Promise.reject(new Error('first failed')));
      if (item === 'second') throw new Error('second failed');
      ended.push(item);
    });
    await expect(failing).rejects.toThrow('first failed');
    expect(ended).toEqual(['slow']);
    expect(started).toEqual(['slow', 'first', 'second']);
  });

  it('runs nothing for no items, and every item once', async () => {
    let runs = 0;
    await inTurns([], 4, async () => void runs++);
    expect(runs).toBe(0);
    await inTurns([1, 2, 3, 4, 5, 6, 7], 3, async () => void runs++);
    expect(runs).toBe(7);
  });
});
