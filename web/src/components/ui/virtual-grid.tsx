import { useRef, type ReactNode } from 'react';
import { useWindowedGrid } from '../../lib/windowing';

export interface VirtualGridProps<T> {
  items: readonly T[];
  /** Fixed height of every cell, px: cells must fit their content into it (truncate, clamp). */
  cellHeight: number;
  gap?: number;
  /** Columns: as many cells of at least this width as fit, up to `maxColumns`. */
  minColumnWidth: number;
  maxColumns: number;
  getKey: (item: T) => string;
  renderItem: (item: T, index: number) => ReactNode;
  /** The list's accessible name. */
  label: string;
  testId?: string;
}

/**
 * A grid of same-sized cells that renders only the rows near the viewport (lib/windowing.ts), for lists of thousands.
 * It is a list to assistive technology; each item says where it sits in the whole list (aria-setsize/posinset),
 * rendered or not.
 */
export function VirtualGrid<T>({
  items,
  cellHeight,
  gap = 16,
  minColumnWidth,
  maxColumns,
  getKey,
  renderItem,
  label,
  testId,
}: VirtualGridProps<T>) {
  const ref = useRef<HTMLDivElement>(null);
  const { columns, first, last, totalHeight, offset } = useWindowedGrid(ref, {
    count: items.length,
    rowHeight: cellHeight,
    gap,
    minColumnWidth,
    maxColumns,
  });
  const shown = items.slice(first, last);

  return (
    <div ref={ref} style={{ height: totalHeight, position: 'relative' }} data-testid={testId} data-columns={columns}>
      <ul
        aria-label={label}
        className="absolute inset-x-0 top-0 grid"
        style={{
          transform: `translateY(${offset}px)`,
          gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))`,
          gridAutoRows: `${cellHeight}px`,
          gap,
        }}
      >
        {shown.map((item, i) => (
          <li key={getKey(item)} aria-setsize={items.length} aria-posinset={first + i + 1} className="min-w-0">
            {renderItem(item, first + i)}
          </li>
        ))}
      </ul>
    </div>
  );
}
