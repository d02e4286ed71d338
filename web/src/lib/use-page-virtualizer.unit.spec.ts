import { Virtualizer } from '@tanstack/react-virtual';
import { describe, expect, it } from 'vitest';
import { observedSize } from './use-page-virtualizer';

/** A virtualizer of 10 items, item i laid out at 100 + i px, that never touches a page. */
function virtualizer() {
  const instance = new Virtualizer<Window, Element>({
    count: 10,
    estimateSize: (i) => 100 + i,
    getItemKey: (i) => `item-${i}`,
    getScrollElement: () => null,
    scrollToFn: () => {},
    observeElementRect: () => {},
    observeElementOffset: () => {},
  });
  instance.getTotalSize(); // lays the items out
  return instance;
}

/** A rendered item at `index` whose layout must not be read (reading it throws). */
function renderedItem(index: number): Element {
  const element = { getAttribute: (name: string) => (name === 'data-index' ? String(index) : null) };
  for (const read of ['offsetHeight', 'offsetWidth', 'getBoundingClientRect']) {
    Object.defineProperty(element, read, {
      get() {
        throw new Error(`${read} read: the browser would lay the page out mid-render`);
      },
    });
  }
  return element as unknown as Element;
}

const reported = (blockSize: number) =>
  ({ borderBoxSize: [{ blockSize, inlineSize: 300 }] }) as unknown as ResizeObserverEntry;

describe('observedSize', () => {
  it('gives a row that has just rendered the size it was laid out at, without reading its layout', () => {
    expect(observedSize(renderedItem(3), undefined, virtualizer())).toBe(103);
  });

  it("takes the observer's report when there is one, rounded", () => {
    expect(observedSize(renderedItem(3), reported(140.4), virtualizer())).toBe(140);
  });

  it('keeps a size the observer reported before when the row renders again', () => {
    const instance = virtualizer();
    instance.resizeItem(4, 180);
    expect(observedSize(renderedItem(4), undefined, instance)).toBe(180);
  });
});
