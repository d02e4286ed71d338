import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router-dom';

/**
 * docs/reference.md "Routing rules": a failed load of a code chunk raises 'Loading chunk failed'; loading times out
 * after 120 seconds.
 */
export const CHUNK_FAILED = 'Loading chunk failed';
export const CHUNK_TIMEOUT_MS = 120_000;

/** Loads a code chunk; a failure or a load slower than the timeout rejects with 'Loading chunk failed'. */
export function loadChunk<T>(load: () => Promise<T>, timeoutMs = CHUNK_TIMEOUT_MS): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(CHUNK_FAILED)), timeoutMs);
    load().then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      () => {
        clearTimeout(timer);
        reject(new Error(CHUNK_FAILED));
      },
    );
  });
}

/**
 * A route whose page lives in a chunk of its own, loaded on first visit. A chunk that fails reaches the route's
 * errorElement (app/route-error.tsx: 'Unexpected Application Error!', 'Loading chunk failed').
 */
export function lazyPage<M>(load: () => Promise<M>, pick: (module: M) => ComponentType): RouteObject['lazy'] {
  return async () => ({ Component: pick(await loadChunk(load)) });
}
