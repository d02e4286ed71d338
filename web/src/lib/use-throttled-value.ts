import { useEffect, useRef, useState } from 'react';

/**
 * `value`, following it at most once per `intervalMs`: the first change after a quiet time shows at once, later ones
 * at the end of the interval, the latest of them (a count pushed a few times a second read once every interval).
 */
export function useThrottledValue<T>(value: T, intervalMs: number): T {
  const [shown, setShown] = useState(value);
  const lastShown = useRef(0);
  useEffect(() => {
    if (Object.is(value, shown)) return;
    const wait = Math.max(0, lastShown.current + intervalMs - Date.now());
    const timer = setTimeout(() => {
      lastShown.current = Date.now();
      setShown(value);
    }, wait);
    return () => clearTimeout(timer);
  }, [value, shown, intervalMs]);
  return shown;
}
