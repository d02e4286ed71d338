import { describe, expect, it } from 'vitest';
import { activityBars } from './activity-bars';

describe('the opens→claims chart', () => {
  it('scales each day to the busiest, side by side', () => {
    const bars = activityBars(
      [
        { day: '2026-12-06', opens: 4, claims: 1 },
        { day: '2026-12-07', opens: 2, claims: 2 },
      ],
      200,
      100,
    );
    expect(bars.map((b) => b.x)).toEqual([0, 100]);
    expect(bars[0]!.opens).toEqual({ y: 0, height: 100, value: 4 });
    expect(bars[0]!.claims).toEqual({ y: 75, height: 25, value: 1 });
    expect(bars[1]!.claims.height).toBe(50);
  });

  it('draws no bar for a day of none, and none at all without days', () => {
    expect(activityBars([{ day: '2026-12-07', opens: 0, claims: 0 }], 10, 10)[0]!.opens.height).toBe(0);
    expect(activityBars([], 10, 10)).toEqual([]);
  });
});
