import { useCallback, useSyncExternalStore, type RefObject } from 'react';

/**
 * Windowing for long lists that scroll with the page (SPEC.md §2's tickets overview must stay smooth with 10,000
 * tickets): only the rows near the viewport are rendered; the list keeps its full height so the scroll bar and the
 * page below stay where they would be. Rows have one fixed height, which keeps the arithmetic exact and cheap.
 */

export interface RowRangeInput {
  /** Rows in the list. */
  count: number;
  /** Height of one row, gaps included, in px. */
  rowHeight: number;
  /** The list's top edge relative to the top of the viewport (getBoundingClientRect().top; negative once scrolled past). */
  listTop: number;
  viewportHeight: number;
  /** Rows rendered beyond each edge of the viewport, so a quick scroll does not show blank space. */
  overscan: number;
}

export interface RowRange {
  /** First row rendered. */
  start: number;
  /** One past the last row rendered. */
  end: number;
}

/** The rows of a list that meet the viewport, plus `overscan` on each side. */
export function visibleRowRange({ count, rowHeight, listTop, viewportHeight, overscan }: RowRangeInput): RowRange {
  if (count <= 0 || rowHeight <= 0) return { start: 0, end: 0 };
  const first = Math.floor(-listTop / rowHeight);
  const last = Math.ceil((viewportHeight - listTop) / rowHeight);
  const start = Math.min(count, Math.max(0, first - overscan));
  const end = Math.min(count, Math.max(start, last + overscan));
  return { start, end };
}

/** Columns of a grid that fit `width`: as many cells of at least `minColumnWidth` as fit, from 1 to `maxColumns`. */
export function gridColumns(width: number, minColumnWidth: number, gap: number, maxColumns: number): number {
  if (!(width > 0)) return 1;
  const fit = Math.floor((width + gap) / (minColumnWidth + gap));
  return Math.min(maxColumns, Math.max(1, fit));
}

export interface WindowedGridOptions {
  count: number;
  /** Height of one row of cells, without the gap below it. */
  rowHeight: number;
  gap?: number;
  minColumnWidth?: number;
  maxColumns?: number;
  overscan?: number;
  /** Rows shown before the list has been measured (the first render). */
  initialRows?: number;
}

export interface WindowedGrid {
  columns: number;
  /** Rows of cells in the whole list. */
  rows: number;
  /** Rows rendered (a range of row indices). */
  range: RowRange;
  /** Items rendered: `items.slice(first, last)`. */
  first: number;
  last: number;
  /** Height of the whole list, px. */
  totalHeight: number;
  /** Offset of the first rendered row from the list's top, px. */
  offset: number;
}

function subscribeToLayout(element: HTMLElement | null, onChange: () => void): () => void {
  let frame = 0;
  const schedule = () => {
    if (frame) return;
    frame = window.requestAnimationFrame(() => {
      frame = 0;
      onChange();
    });
  };
  window.addEventListener('scroll', schedule, { passive: true });
  window.addEventListener('resize', schedule);
  const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(schedule);
  if (element) observer?.observe(element);
  return () => {
    window.cancelAnimationFrame(frame);
    window.removeEventListener('scroll', schedule);
    window.removeEventListener('resize', schedule);
    observer?.disconnect();
  };
}

/**
 * Which cells of a page-scrolled grid (or, with `maxColumns` 1, a list) to render. The grid's element is `ref`: its
 * width gives the columns, its position the rows in view. Re-renders only when the rendered range or the columns
 * change, at most once per animation frame.
 */
export function useWindowedGrid(
  ref: RefObject<HTMLElement | null>,
  {
    count,
    rowHeight,
    gap = 0,
    minColumnWidth = 1,
    maxColumns = 1,
    overscan = 3,
    initialRows = 12,
  }: WindowedGridOptions,
): WindowedGrid {
  const subscribe = useCallback((onChange: () => void) => subscribeToLayout(ref.current, onChange), [ref]);
  const pitch = rowHeight + gap;

  // The snapshot is a string so an unchanged window compares equal and renders nothing.
  const snapshot = useSyncExternalStore(subscribe, () => {
    const element = ref.current;
    if (!element) return `1:0:${initialRows}`;
    const columns = gridColumns(element.clientWidth, minColumnWidth, gap, maxColumns);
    const { start, end } = visibleRowRange({
      count: Math.ceil(count / columns),
      rowHeight: pitch,
      listTop: element.getBoundingClientRect().top,
      viewportHeight: window.innerHeight,
      overscan,
    });
    return `${columns}:${start}:${end}`;
  });

  const [columns, start, end] = snapshot.split(':').map(Number) as [number, number, number];
  const rows = Math.ceil(count / columns);
  const range = { start: Math.min(start, rows), end: Math.min(end, rows) };
  return {
    columns,
    rows,
    range,
    first: range.start * columns,
    last: Math.min(count, range.end * columns),
    totalHeight: rows > 0 ? rows * pitch - gap : 0,
    offset: range.start * pitch,
  };
}
