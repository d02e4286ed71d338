/** Columns of a grid that fit `width`: as many cells of at least `minColumnWidth` as fit, from 1 to `maxColumns`. */
export function gridColumns(width: number, minColumnWidth: number, gap: number, maxColumns: number): number {
  if (!(width > 0)) return 1;
  const fit = Math.floor((width + gap) / (minColumnWidth + gap));
  return Math.min(maxColumns, Math.max(1, fit));
}
