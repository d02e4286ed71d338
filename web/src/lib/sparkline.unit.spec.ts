import { describe, expect, it } from 'vitest';
import { sparklineShape } from './sparkline';

const now = Date.parse('2026-11-22T12:00:00Z');

describe('click sparkline', () => {
  it('is a flat line at the bottom without clicks', () => {
    expect(sparklineShape([], now, 64, 18)).toEqual({
      line: 'M1.5 16.5H62.5',
      area: 'M1.5 16.5H62.5V16.5H1.5Z',
      total: 0,
      lastClickAt: null,
    });
  });

  it('steps up by each minute’s clicks to the total, at the top edge, over at least the last hour', () => {
    const shape = sparklineShape(
      [
        { minute: '2026-11-22T11:30:00Z', clicks: 1 },
        { minute: '2026-11-22T11:45:00Z', clicks: 3 },
      ],
      now,
      61,
      13,
      0.5,
    );
    // x from 11:00 (an hour before now) to 12:00 over 60 px; y from 12.5 (none) to 0.5 (all 4).
    expect(shape.line).toBe('M0.5 12.5H30.5V9.5H45.5V0.5H60.5');
    expect(shape.total).toBe(4);
    expect(shape.lastClickAt).toBe(Date.parse('2026-11-22T11:45:00Z'));
    expect(shape.area.endsWith('V12.5H0.5Z')).toBe(true);
  });

  it('spans back to a minute before the first click when that is longer ago, in time order', () => {
    const shape = sparklineShape(
      [
        { minute: '2026-11-22T10:00:00Z', clicks: 2 },
        { minute: '2026-11-20T12:01:00Z', clicks: 2 },
      ],
      now,
      100,
      10,
      0,
    );
    expect(shape.line.startsWith('M0 10H0.03V5')).toBe(true);
    expect(shape.line.endsWith('V0H100')).toBe(true);
  });
});
