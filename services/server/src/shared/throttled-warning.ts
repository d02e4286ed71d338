/**
 * Warnings about a dependency that is away (Redis refusing connections) come many times a second from every client;
 * one line per `key` per window, with the count of those held back, says the same without flooding the log.
 */
export function throttledWarning(
  warn: (message: string) => void,
  everyMs = 10_000,
  now: () => number = Date.now,
): (key: string, message: string) => void {
  const last = new Map<string, { at: number; held: number }>();
  return (key, message) => {
    const seen = last.get(key);
    const at = now();
    if (seen && at - seen.at < everyMs) {
      seen.held++;
      return;
    }
    const held = seen?.held ?? 0;
    last.set(key, { at, held: 0 });
    warn(held > 0 ? `${message} (and ${held} more like it since the last report)` : message);
  };
}
