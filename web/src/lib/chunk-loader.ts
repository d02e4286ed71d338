import { lazy, type ComponentType } from 'react';
import { loadChunk } from './lazy-route';

const FIRST_INTERACTION = ['pointerover', 'pointerdown', 'touchstart', 'keydown'] as const;

/**
 * A loader of a chunk of code needed only once something opens (React Aria's parts of a dialog or a date picker, the
 * Top Up modal, a QR code), so it stays off the first load of a page. The chunk starts loading at the page's first
 * interaction (a pointer over it, a touch, a key), normally well before anything opens, or when first rendered,
 * whichever comes first. A failed load is tried again the next time.
 */
export function chunkLoader<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  const start = () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));
  if (typeof window !== 'undefined') {
    const onFirst = () => {
      for (const type of FIRST_INTERACTION) window.removeEventListener(type, onFirst, true);
      void start().catch(() => undefined);
    };
    for (const type of FIRST_INTERACTION) window.addEventListener(type, onFirst, { capture: true, passive: true });
  }
  return start;
}

/**
 * A component whose code is a chunk of its own, loaded as {@link chunkLoader} says (at the page's first interaction,
 * or when first rendered) and failing as a lazy route's does ('Loading chunk failed'). Render it inside a Suspense.
 */
export function lazyChunk<M, P extends object>(load: () => Promise<M>, pick: (module: M) => ComponentType<P>) {
  const loadOnce = chunkLoader(() => loadChunk(load));
  return lazy(async () => ({ default: pick(await loadOnce()) }));
}
