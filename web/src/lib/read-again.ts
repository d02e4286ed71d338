/**
 * Runs `read` until it says it read (resolves true), while `current()` holds: up to `tries` times, waiting
 * `firstWaitMs` after the first failure and twice as long after each next one. Resolves whether it read.
 */
export async function readAgainUntilRead(
  read: () => Promise<boolean>,
  current: () => boolean,
  { tries = 5, firstWaitMs = 500 }: { tries?: number; firstWaitMs?: number } = {},
): Promise<boolean> {
  for (let attempt = 1, waitMs = firstWaitMs; current(); attempt++, waitMs *= 2) {
    if (await read()) return true;
    if (attempt >= tries) return false;
    await new Promise((resolve) => setTimeout(resolve, waitMs));
  }
  return false;
}
