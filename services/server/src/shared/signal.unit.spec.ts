import { describe, expect, it } from 'vitest';
import { Signal } from './signal.js';

describe('Signal', () => {
  it('returns at once when notified before the wait', async () => {
    const signal = new Signal();
    signal.notify();
    signal.notify();
    const started = Date.now();
    expect(await signal.wait(10_000)).toBe(true);
    expect(Date.now() - started).toBeLessThan(1000);
    // Both notifies were taken by that one wait.
    expect(await signal.wait(20)).toBe(false);
  });

  it('wakes a wait in progress', async () => {
    const signal = new Signal();
    const waiting = signal.wait(10_000);
    setTimeout(() => signal.notify(), 5);
    expect(await waiting).toBe(true);
  });

  it('keeps a notify that arrives between a timed-out wait and the next one (the lost wake-up)', async () => {
    const signal = new Signal();
    expect(await signal.wait(5)).toBe(false);
    // The earlier wait's wake function must not swallow this notify.
    signal.notify();
    expect(await signal.wait(10_000)).toBe(true);
  });

  it('keeps a notify that arrives after a woken wait returned', async () => {
    const signal = new Signal();
    const first = signal.wait(10_000);
    signal.notify();
    expect(await first).toBe(true);
    signal.notify();
    expect(await signal.wait(10_000)).toBe(true);
  });
});
