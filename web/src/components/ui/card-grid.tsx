import { useCallback, useRef, type ReactNode } from 'react';
import { slotKey, useElementPlacement, usePageVirtualizer, useRowSlots } from '../../lib/use-page-virtualizer';
import { gridColumns } from './grid-columns';

export interface CardGridProps<T> {
  items: readonly T[];
  /**
   * The height a card takes, px, from its data; a row is as tall as its tallest card. The rows are laid out by it;
   * each rendered row is watched by a ResizeObserver, so a row that turns out taller or shorter (a font the data could
   * not foresee) moves the rows below it, a frame later.
   */
  estimateCardHeight: (item: T) => number;
  gap?: number;
  /** Columns: as many cards of at least this width as fit, up to `maxColumns`. */
  minColumnWidth: number;
  maxColumns: number;
  getKey: (item: T) => string;
  /**
   * A card's content. Rows keep their elements as the grid scrolls (lib/use-page-virtualizer.ts `useRowSlots`): a card's
   * place shows one item, then another, so what holds state or focus inside a card is keyed by its item.
   */
  renderItem: (item: T, index: number) => ReactNode;
  /** The list's accessible name. */
  label: string;
  testId?: string;
}

/**
 * A grid of cards for lists of thousands, windowed with TanStack Virtual over the page's scroll: only the rows near
 * the viewport are rendered, each row as tall as its tallest card (as its data says, watched by a ResizeObserver), and
 * a row scrolling in takes the elements of one scrolling out (lib/use-page-virtualizer.ts `useRowSlots`). It is a list
 * to assistive technology; each item says where it sits in the whole list (aria-setsize/posinset), rendered or not.
 */
export function CardGrid<T>({
  items,
  estimateCardHeight,
  gap = 16,
  minColumnWidth,
  maxColumns,
  getKey,
  renderItem,
  label,
  testId,
}: CardGridProps<T>) {
  const ref = useRef<HTMLDivElement>(null);
  const { top, width, placed } = useElementPlacement(ref);
  const columns = gridColumns(width, minColumnWidth, gap, maxColumns);
  const rowItems = useCallback((row: number) => items.slice(row * columns, row * columns + columns), [items, columns]);
  const virtualizer = usePageVirtualizer({
    count: Math.ceil(items.length / columns),
    // Read for every row whenever the list changes (10,000 rows on a phone): a loop, no array made per row.
    sizeOf: useCallback(
      (row: number) => {
        let height = 0;
        for (let i = row * columns, end = Math.min(items.length, i + columns); i < end; i++) {
          height = Math.max(height, estimateCardHeight(items[i]!));
        }
        return height;
      },
      [estimateCardHeight, items, columns],
    ),
    // A row is known by its first card's key as it is, read for every row whenever the list changes: a string made per
    // row cost about 5 ms for 10,000 rows on a desktop CPU, four times that on a phone. A new column count forgets
    // every row's measured size (useRowSlots' `layout`).
    keyOf: useCallback((row: number) => getKey(items[row * columns]!), [items, columns, getKey]),
    gap,
    // One row beyond each edge, none in a jump (rows render in the scroll event itself, before the frame is painted).
    overscan: 1,
    top,
  });
  const slotRef = useRowSlots(virtualizer, columns);
  const rows = placed ? virtualizer.getVirtualItems() : [];

  const template = `repeat(${columns}, minmax(0, 1fr))`;
  return (
    <div
      ref={ref}
      style={{ height: virtualizer.getTotalSize(), position: 'relative' }}
      data-testid={testId}
      data-columns={columns}
    >
      <div role="list" aria-label={label}>
        {rows.map((row) => {
          const start = row.index * columns;
          return (
            <div
              key={slotKey(row.index, rows.length)}
              role="none"
              data-index={row.index}
              ref={slotRef}
              className="absolute inset-x-0 top-0 grid"
              style={{
                transform: `translateY(${row.start - virtualizer.options.scrollMargin}px)`,
                gridTemplateColumns: template,
                gap,
                // A row's layout is its own: a row coming or going does not lay the others out again.
                contain: 'layout paint',
              }}
            >
              {rowItems(row.index).map((item, i) => (
                <div
                  // Its place in the row: the card's elements pass to the item that takes the place.
                  key={i}
                  role="listitem"
                  aria-setsize={items.length}
                  aria-posinset={start + i + 1}
                  className="min-w-0"
                >
                  {renderItem(item, start + i)}
                </div>
              ))}
            </div>
          );
        })}
      </div>
    </div>
  );
}
