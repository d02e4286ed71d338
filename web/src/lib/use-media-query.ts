import { useCallback, useSyncExternalStore } from 'react';

/**
 * One MediaQueryList per query, made at its first use: React reads a store's snapshot at every render and again before
 * each commit, and `matchMedia` made a new list each time (about 1 ms a keystroke in the overview's search, whose
 * page renders twice a key).
 */
const lists = new Map<string, MediaQueryList>();

function listOf(query: string): MediaQueryList {
  let list = lists.get(query);
  if (!list) {
    list = window.matchMedia(query);
    lists.set(query, list);
  }
  return list;
}

/** Whether the window matches `query` (e.g. '(max-width: 767px)'), following it as the window is resized. */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const list = listOf(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    [query],
  );
  return useSyncExternalStore(
    subscribe,
    () => listOf(query).matches,
    () => false,
  );
}
