import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { itemsToRender, slotKey } from './use-page-virtualizer';

/** TanStack's visible range of items `startIndex`–`endIndex` of 100, with one item of overscan. */
const visible = (startIndex: number, endIndex: number, overscan = 1) => ({
  startIndex,
  endIndex,
  overscan,
  count: 100,
});

describe('itemsToRender', () => {
  it('renders the overscan beyond each edge when nothing showed before (the first render, the page still)', () => {
    expect(itemsToRender(visible(10, 12), null)).toEqual([9, 10, 11, 12, 13]);
  });

  it('renders the overscan while the window moves less than itself a frame', () => {
    expect(itemsToRender(visible(11, 13), { startIndex: 10, endIndex: 12 })).toEqual([10, 11, 12, 13, 14]);
    expect(itemsToRender(visible(9, 11), { startIndex: 10, endIndex: 12 })).toEqual([8, 9, 10, 11, 12]);
    // Sharing one item is enough.
    expect(itemsToRender(visible(12, 14), { startIndex: 10, endIndex: 12 })).toEqual([11, 12, 13, 14, 15]);
  });

  it('renders the visible items alone in a jump, either way', () => {
    expect(itemsToRender(visible(13, 15), { startIndex: 10, endIndex: 12 })).toEqual([13, 14, 15]);
    expect(itemsToRender(visible(40, 42, 3), { startIndex: 90, endIndex: 92 })).toEqual([40, 41, 42]);
  });

  it('never renders beyond the list', () => {
    expect(itemsToRender(visible(0, 2, 2), null)).toEqual([0, 1, 2, 3, 4]);
    expect(itemsToRender(visible(97, 99, 2), { startIndex: 96, endIndex: 98 })).toEqual([95, 96, 97, 98, 99]);
  });
});

describe('slotKey', () => {
  it('gives the rows of any window of n contiguous rows the keys 0 to n − 1', () => {
    fc.assert(
      fc.property(fc.nat(100_000), fc.integer({ min: 1, max: 40 }), (start, n) => {
        const keys = Array.from({ length: n }, (_, i) => slotKey(start + i, n));
        expect([...keys].sort((a, b) => a - b)).toEqual(Array.from({ length: n }, (_, i) => i));
      }),
    );
  });

  it('gives the row scrolling in the key of the row scrolling out', () => {
    fc.assert(
      fc.property(fc.nat(100_000), fc.integer({ min: 1, max: 40 }), (start, n) => {
        expect(slotKey(start + n, n)).toBe(slotKey(start, n));
      }),
    );
  });
});
