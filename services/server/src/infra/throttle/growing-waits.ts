import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

/** How one kind of subject (a device, an address) is slowed: see GrowingWaits. */
export interface GrowingWaitsOptions {
  /** Where its keys live in Redis (and the name of the memory fallback). */
  keyPrefix: string;
  /** Tries let through at once before the waits start. */
  free: number;
  /** The longest wait between two tries, in seconds. */
  maxWaitSeconds: number;
  /** How long a subject's tries are remembered, from its first (its waits start again afterwards). */
  lifetimeSeconds: number;
  /** Null: counted in this process's memory (no REDIS_URL). */
  redis: Redis | null;
}

/**
 * Tries slowed with growing waits, per subject, as rate-limiter-flexible's ExpressBruteFlexible does it (its `free`,
 * `block` and `counter` limiters), here without its Express middleware and, as every limit of ThrottleService, in Redis
 * with this process's memory as the insurance when Redis fails: the first `free` tries go at once; past them a try goes
 * only when the wait the last one set is over, and sets the next, twice as long (1 s, 2 s, 4 s … maxWaitSeconds).
 *
 * Each step is one atomic operation of its store, so tries sent at once cannot slip past the count: at most `free` go
 * through the free allowance, and one per wait through the block (the first to set it; the others find it set).
 */
export class GrowingWaits {
  private readonly free: RateLimiterAbstract;
  private readonly block: RateLimiterAbstract;
  private readonly counter: RateLimiterAbstract;
  private readonly maxWaitSeconds: number;

  constructor(options: GrowingWaitsOptions) {
    this.maxWaitSeconds = options.maxWaitSeconds;
    const make = (name: string, points: number, duration: number): RateLimiterAbstract => {
      const limiter = { points, duration, keyPrefix: `${options.keyPrefix}:${name}` };
      return options.redis
        ? new RateLimiterRedis({
            ...limiter,
            storeClient: options.redis,
            insuranceLimiter: new RateLimiterMemory(limiter),
          })
        : new RateLimiterMemory(limiter);
    };
    this.free = make('free', options.free, options.lifetimeSeconds);
    // One try per wait: the first try of a wait sets it (its length given as the key's own duration).
    this.block = make('block', 1, options.maxWaitSeconds);
    // The waits set so far: the next is twice the last.
    this.counter = make('counter', 1_000_000_000, options.lifetimeSeconds);
  }

  /** The wait after the n-th (0-based) slowed try, in seconds. */
  waitAfter(n: number): number {
    return Math.min(this.maxWaitSeconds, 2 ** Math.min(n, 30));
  }

  /** Counts one try: answers 0 when it may go on, or the milliseconds before the subject's next try may. */
  async take(key: string): Promise<number> {
    try {
      await this.free.consume(key);
      return 0;
    } catch (err) {
      if (!(err instanceof RateLimiterRes)) throw err;
    }
    const counted = await this.counter.get(key);
    const seconds = this.waitAfter(counted?.consumedPoints ?? 0);
    try {
      await this.block.consume(key, 1, { customDuration: seconds });
    } catch (err) {
      if (err instanceof RateLimiterRes) return Math.max(1, err.msBeforeNext);
      throw err;
    }
    await this.counter.penalty(key, 1);
    return 0;
  }

  /** Forgets the subject's tries (its next ones go at once again). */
  async forget(key: string): Promise<void> {
    await Promise.all([this.free.delete(key), this.block.delete(key), this.counter.delete(key)]);
  }
}
