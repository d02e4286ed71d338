import { describe, expect, it } from 'vitest';
import { gridColumns, visibleRowRange } from './windowing';

describe('windowing', () => {
  it('renders the rows in the viewport plus the overscan', () => {
    // A list starting 200 px down a 800 px viewport, rows of 100 px: rows 0..6 meet the viewport.
    expect(visibleRowRange({ count: 1000, rowHeight: 100, listTop: 200, viewportHeight: 800, overscan: 2 })).toEqual({
      start: 0,
      end: 8,
    });
    // Scrolled 5,000 px past the list's top: rows 50..58.
    expect(visibleRowRange({ count: 1000, rowHeight: 100, listTop: -5000, viewportHeight: 800, overscan: 2 })).toEqual({
      start: 48,
      end: 60,
    });
  });

  it('stays inside the list', () => {
    expect(visibleRowRange({ count: 10, rowHeight: 100, listTop: -5000, viewportHeight: 800, overscan: 2 })).toEqual({
      start: 10,
      end: 10,
    });
    expect(visibleRowRange({ count: 10, rowHeight: 100, listTop: 2000, viewportHeight: 800, overscan: 3 })).toEqual({
      start: 0,
      end: 0,
    });
    expect(visibleRowRange({ count: 0, rowHeight: 100, listTop: 0, viewportHeight: 800, overscan: 3 })).toEqual({
      start: 0,
      end: 0,
    });
  });

  it('fits 1 to 4 columns by width', () => {
    expect(gridColumns(343, 272, 16, 4)).toBe(1);
    expect(gridColumns(704, 272, 16, 4)).toBe(2);
    expect(gridColumns(960, 272, 16, 4)).toBe(3);
    expect(gridColumns(1216, 272, 16, 4)).toBe(4);
    expect(gridColumns(3000, 272, 16, 4)).toBe(4);
    expect(gridColumns(0, 272, 16, 4)).toBe(1);
  });
});
