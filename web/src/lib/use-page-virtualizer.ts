import { useWindowVirtualizer, type Virtualizer } from '@tanstack/react-virtual';
import { useLayoutEffect, useState, type RefObject } from 'react';

export interface ElementPlacement {
  /** px from the document's top. */
  top: number;
  width: number;
  /**
   * False until the element has been measured once (its first commit, before the page paints). A list renders no item
   * before: they would be laid out at a width and place that are not theirs, the page laid out with them to measure
   * it, and rendered again, all in the task that first shows the list.
   */
  placed: boolean;
}

/**
 * Where `ref`'s element starts in the page (px from the document's top) and how wide it is, followed as the page
 * around it changes (an alert above it, the window resized). Read from ResizeObservers, never during a scroll.
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
    measure();
    const observer = new ResizeObserver(measure);
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

/**
 * The size of a rendered item, for a list whose items are laid out by their data and watched in case they differ:
 * what its ResizeObserver last reported, and when an item has just rendered (no report yet) the size it was laid out
 * at. TanStack's own reads the element's offsetHeight then, which makes the browser lay the page out in the middle of
 * the render, once per row that scrolls into view; the observer's report comes after the browser's own layout, free.
 */
export function observedSize(
  element: Element,
  entry: ResizeObserverEntry | undefined,
  instance: Virtualizer<Window, Element>,
): number {
  const box = entry?.borderBoxSize?.[0];
  if (box) return Math.round(box.blockSize);
  const index = instance.indexFromElement(element);
  return instance.itemSizeCache.get(instance.options.getItemKey(index)) ?? instance.options.estimateSize(index);
}

/**
 * TanStack Virtual over the page's own scroll (the list scrolls with the page, as the rest of the dashboard does):
 * only the items near the viewport are rendered, and the list keeps its full height. Sizes come from the data, never
 * from measuring rendered items, so scrolling causes no layout reads.
 */
export function usePageVirtualizer({ count, sizeOf, keyOf, gap = 0, overscan = 4, top }: PageVirtualizerOptions) {
  return useWindowVirtualizer({
    count,
    estimateSize: sizeOf,
    getItemKey: keyOf,
    gap,
    overscan,
    scrollMargin: top,
    measureElement: observedSize,
    // The first render already fills the viewport (before the window is observed).
    initialRect: typeof window === 'undefined' ? undefined : { width: window.innerWidth, height: window.innerHeight },
  });
}
