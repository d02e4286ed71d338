import { useCallback, useEffect, useRef } from 'react';

/**
 * A function that calls `callback` once, `delayMs` after the last of a burst of calls (live pushes that arrive
 * together cause one reload). The latest `callback` is used; a pending call is dropped on unmount.
 */
export function useDebouncedCallback(callback: () => void, delayMs: number): () => void {
  const callbackRef = useRef(callback);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => {
    callbackRef.current = callback;
  }, [callback]);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  return useCallback(() => {
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => callbackRef.current(), delayMs);
  }, [delayMs]);
}
