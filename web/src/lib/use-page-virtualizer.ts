import { defaultRangeExtractor, type Range, useWindowVirtualizer, type Virtualizer } from '@tanstack/react-virtual';
import { startTransition, useCallback, useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';

export interface ElementPlacement {
  /** px from the document's top. */
  top: number;
  width: number;
  /**
   * False until the element has been measured once (right after its first commit). A list renders no item before:
   * they would be laid out at a width and place that are not theirs, the page laid out with them to measure it, and
   * rendered again, all in the task that first shows the list.
   */
  placed: boolean;
}

/**
 * Where `ref`'s element starts in the page (px from the document's top) and how wide it is, followed as the page
 * around it changes (an alert above it, the window resized). Read from ResizeObservers, never during a scroll, and
 * set in transitions: what it renders (the list's items) is rendered in slices that yield.
 */
export function useElementPlacement(ref: RefObject<HTMLElement | null>): ElementPlacement {
  const [placement, setPlacement] = useState<ElementPlacement>({ top: 0, width: 0, placed: false });
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => {
      const box = element.getBoundingClientRect();
      const top = Math.round(box.top + window.scrollY);
      const width = Math.round(box.width);
      setPlacement((current) =>
        current.placed && current.top === top && current.width === width ? current : { top, width, placed: true },
      );
    };
    // The first placement renders the list's items: at a lower priority than the commit that placed the element, so
    // their render is a task of its own (several, yielding) instead of part of the one that showed the page, which on
    // a phone was the longest of its load. The element has its full height already: nothing below it moves.
    startTransition(measure);
    // So is every later one. The observer's first report comes right after the commit; set at the normal priority, it
    // took the pending first placement with it, and the list's first cards were rendered in one task that could not
    // yield (30–40 ms of a cold load's trace on a desktop CPU). A later change (the window resized, an alert above) is
    // drawn a frame or so later, the page answering in between.
    const observer = new ResizeObserver(() => startTransition(measure));
    // The element's own size, and the page's: what is above it changing height moves it.
    observer.observe(element);
    observer.observe(document.body);
    return () => observer.disconnect();
  }, [ref]);
  return placement;
}

export interface PageVirtualizerOptions {
  count: number;
  /** Height of item `index` in px, known without measuring it (fixed or computed from its data). */
  sizeOf: (index: number) => number;
  /** Identifies item `index`; a new function (its data changed) makes the virtualizer read every size again. */
  keyOf: (index: number) => string | number;
  gap?: number;
  /** Items rendered beyond each edge of the viewport. */
  overscan?: number;
  /** The list's top in the page (useElementPlacement). */
  top: number;
}

/** The items that showed in a frame: TanStack's visible range, without its overscan. */
export interface Shown {
  startIndex: number;
  endIndex: number;
}

/**
 * The items to render for the visible `range`, given what showed in the frame before: the visible items and
 * `range.overscan` more beyond each edge, so that a scroll that moves less than a window at a time (a wheel, a
 * finger, a fling slowing down) finds the next rows already there when the compositor scrolls ahead of the page.
 * A jump, where no item showing now showed in the frame before (a scroll bar dragged, a fast fling, a key to the
 * end), renders the visible items alone: rows beyond an edge would be gone by the next frame, built for nothing,
 * and on a slow phone they are most of a frame's work.
 */
export function itemsToRender(range: Range, before: Shown | null): number[] {
  const jumped = before !== null && (range.startIndex > before.endIndex || range.endIndex < before.startIndex);
  return defaultRangeExtractor(jumped ? { ...range, overscan: 0 } : range);
}

/**
 * TanStack Virtual over the page's own scroll (the list scrolls with the page, as the rest of the dashboard does):
 * only the items near the viewport are rendered (`itemsToRender`), and the list keeps its full height. Sizes come from
 * the data, never from measuring rendered items, so scrolling causes no layout reads.
 */
export function usePageVirtualizer({ count, sizeOf, keyOf, gap = 0, overscan = 4, top }: PageVirtualizerOptions) {
  const shown = useRef<Shown | null>(null);
  // A new extractor when a scroll starts or ends: TanStack works the items out again, so the overscan a jump left out
  // is rendered once the page is still.
  const [scrolling, setScrolling] = useState(false);
  const rangeExtractor = useCallback(
    (range: Range) => {
      const items = itemsToRender(range, scrolling ? shown.current : null);
      shown.current = { startIndex: range.startIndex, endIndex: range.endIndex };
      return items;
    },
    [scrolling],
  );
  return useWindowVirtualizer({
    count,
    estimateSize: sizeOf,
    getItemKey: keyOf,
    gap,
    overscan,
    rangeExtractor,
    onChange: (instance) => setScrolling(instance.isScrolling),
    scrollMargin: top,
    // The first render already fills the viewport (before the window is observed).
    initialRect: typeof window === 'undefined' ? undefined : { width: window.innerWidth, height: window.innerHeight },
  });
}

/** The key of rendered row `index` when `rendered` contiguous rows are rendered: its slot (`useRowSlots`). */
export const slotKey = (index: number, rendered: number): number => index % rendered;

/**
 * Rows that keep their DOM elements as the window moves. Rendered rows are keyed by `slotKey`: the rows of any window
 * of n contiguous rows have the keys 0 to n−1, so a row that scrolls out hands its elements to the row scrolling in,
 * and React changes their text and attributes instead of removing one row's elements and building the other's (in a
 * fast scroll of 10,000 tickets, where every frame shows new rows, about a third of each frame). What holds state or
 * focus inside a row must be keyed by its item (a dialog, a checkbox), so it never passes to another item.
 *
 * Rows are laid out by their data and watched by a ResizeObserver, which sets the virtualizer's size of a row that
 * turns out taller or shorter (a font the data could not foresee). A slot is observed afresh whenever it holds another
 * row (its `data-index`, or the item key there: a search puts other cards in the same row), and every slot when `layout`
 * changes (a grid's column count: a row keyed by its first card then holds other cards beside it), so its first report
 * is the new row's size: a report comes only when a size changes, and the row it held before may have been as tall.
 * A new `layout` also makes the virtualizer forget every row size it measured (`measure()`).
 * TanStack's own measuring keeps elements by item, not by slot.
 */
export function useRowSlots(virtualizer: Virtualizer<Window, Element>, layout?: unknown) {
  const [observer] = useState(() =>
    typeof ResizeObserver === 'undefined'
      ? null
      : new ResizeObserver((entries) => {
          for (const entry of entries) {
            const box = entry.borderBoxSize?.[0];
            const index = rowIndexOf(entry.target, virtualizer);
            if (box && entry.target.isConnected && index !== null) {
              virtualizer.resizeItem(index, Math.round(box.blockSize));
            }
          }
        }),
  );
  /** Each rendered slot, and the row (its item key) it was last observed holding. */
  const [slots] = useState(() => new Map<Element, unknown>());
  const ref = useCallback(
    (element: HTMLElement | null) => {
      if (!element) return;
      slots.set(element, null);
      return () => {
        observer?.unobserve(element);
        slots.delete(element);
      };
    },
    [observer, slots],
  );
  // Rows laid out anew (another column count) hold other items: none keeps the size it was measured at, and every slot
  // is observed afresh, even where it holds the same item key (before the page paints).
  const observedLayout = useRef(layout);
  useLayoutEffect(() => {
    if (observedLayout.current !== layout) {
      observedLayout.current = layout;
      virtualizer.measure();
      for (const element of slots.keys()) slots.set(element, null);
    }
    for (const [element, observed] of slots) {
      const index = rowIndexOf(element, virtualizer);
      if (index === null) continue;
      const key = virtualizer.options.getItemKey(index);
      if (key === observed) continue;
      observer?.unobserve(element);
      observer?.observe(element);
      slots.set(element, key);
    }
  });
  useEffect(() => () => observer?.disconnect(), [observer]);
  return ref;
}

/** The row a slot holds (its `data-index`), or null when it names none of the virtualizer's rows. */
function rowIndexOf(element: Element, virtualizer: Virtualizer<Window, Element>): number | null {
  const index = Number(element.getAttribute('data-index'));
  return Number.isInteger(index) && index >= 0 && index < virtualizer.options.count ? index : null;
}
