import { describe, expect, it } from 'vitest';
import { scheduleInTurns } from './wallet-sync-schedule.reaction.js';

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('scheduleInTurns', () => {
  it('runs a few accounts at once, an account in its order, each turn after the one before', async () => {
    const log: string[] = [];
    let running = 0;
    let most = 0;
    const work = (accountId: string, n: number, ms: number) => ({
      accountId,
      run: async () => {
        running++;
        most = Math.max(most, running);
        log.push(`start ${accountId}${n}`);
        await tick(ms);
        log.push(`end ${accountId}${n}`);
        running--;
      },
    });
    await scheduleInTurns([work('a', 1, 20), work('b', 1, 1), work('a', 2, 1), work('c', 1, 1), work('d', 1, 1)], 3);
    // The first turn (a1, b1, a2): a2 waits for a1; the second (c1, d1) starts once the first has ended.
    expect(log.indexOf('start a2')).toBeGreaterThan(log.indexOf('end a1'));
    expect(log.indexOf('start b1')).toBeLessThan(log.indexOf('end a1'));
    expect(log.indexOf('start c1')).toBeGreaterThan(log.indexOf('end a2'));
    expect(most).toBeLessThanOrEqual(3);
    expect(log.filter((l) => l.startsWith('end'))).toHaveLength(5);
  });

  it('fails with the first failure once every work of its turn has settled, and starts no later turn', async () => {
    const ended: string[] = [];
    const failing = scheduleInTurns(
      [
        { accountId: 'a', run: () => Promise.reject(new Error('queue away')) },
        { accountId: 'b', run: () => tick(20).then(() => void ended.push('b')) },
        { accountId: 'c', run: () => Promise.resolve(void ended.push('c')) },
      ],
      2,
    );
    await expect(failing).rejects.toThrow('queue away');
    expect(ended).toEqual(['b']);
  });
});
