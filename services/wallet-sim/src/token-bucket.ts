/**
 * A token bucket: `ratePerSecond` tokens flow in per second up to a burst of one second's worth (at least 1).
 * A rate of 0 means no limit.
 */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    private readonly ratePerSecond: number,
    now: number,
  ) {
    this.tokens = this.capacity;
    this.last = now;
  }

  get capacity(): number {
    return Math.max(1, this.ratePerSecond);
  }

  /** Takes one token: null when granted, else the milliseconds until one is available. */
  take(now: number): number | null {
    if (this.ratePerSecond <= 0) return null;
    const elapsed = Math.max(0, now - this.last);
    this.last = Math.max(this.last, now);
    this.tokens = Math.min(this.capacity, this.tokens + (elapsed / 1000) * this.ratePerSecond);
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return null;
    }
    return ((1 - this.tokens) / this.ratePerSecond) * 1000;
  }
}
