import { describe, expect, it } from 'vitest';
import { clockOf } from './ticket-clock';

describe('clockOf', () => {
  const now = Date.parse('2026-11-28T12:00:00Z');

  it('gives a linked ticket the time, so its expiry and click timeline age', () => {
    expect(clockOf({ distribution: { link: 'https://seatlink.test/l/abc' } as never }, now)).toBe(now);
  });

  it('gives a ticket without a link the same 0 at every tick, so its card is not rendered again', () => {
    expect(clockOf({ distribution: null }, now)).toBe(0);
    expect(clockOf({ distribution: null }, now + 30_000)).toBe(0);
    expect(clockOf({ distribution: { link: '' } as never }, now)).toBe(0);
  });
});
