import { describe, expect, it } from 'vitest';
import { gridColumns } from './grid-columns';

describe('grid columns', () => {
  it('fits 1 to 4 columns by width', () => {
    expect(gridColumns(343, 272, 16, 4)).toBe(1);
    expect(gridColumns(704, 272, 16, 4)).toBe(2);
    expect(gridColumns(960, 272, 16, 4)).toBe(3);
    expect(gridColumns(1216, 272, 16, 4)).toBe(4);
    expect(gridColumns(3000, 272, 16, 4)).toBe(4);
  });

  it('is one column before the grid has been measured', () => {
    expect(gridColumns(0, 272, 16, 4)).toBe(1);
    expect(gridColumns(Number.NaN, 272, 16, 4)).toBe(1);
  });
});
