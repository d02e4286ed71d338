import { useEffect, useState } from 'react';

/**
 * The current time as epoch milliseconds, renewed every `intervalMs` while the component is mounted: for texts that
 * age ("Synced 5 min ago") without anything else changing.
 */
export function useNow(intervalMs = 30_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), intervalMs);
    return () => window.clearInterval(timer);
  }, [intervalMs]);
  return now;
}
