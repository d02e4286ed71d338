import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

const KEY = 'provider';

/**
 * One pace toward the wallet provider for every worker (in Redis when configured): at most `requestsPerSecond`
 * calls, and a 429 from the provider stops them all for its Retry-After.
 */
export class ProviderRateLimiter {
  private readonly limiter: RateLimiterAbstract;

  constructor(options: { requestsPerSecond: number; redis?: Redis; prefix: string }) {
    const limits = { points: options.requestsPerSecond, duration: 1, keyPrefix: `${options.prefix}:wallet-provider` };
    this.limiter = options.redis
      ? new RateLimiterRedis({ ...limits, storeClient: options.redis, insuranceLimiter: new RateLimiterMemory(limits) })
      : new RateLimiterMemory(limits);
  }

  /** Waits for a turn (at most `maxWaitMs`, then throws). */
  async take(maxWaitMs = 60_000): Promise<void> {
    const deadline = Date.now() + maxWaitMs;
    for (;;) {
      try {
        await this.limiter.consume(KEY);
        return;
      } catch (err) {
        if (!(err instanceof RateLimiterRes)) throw err;
        const wait = Math.max(5, err.msBeforeNext);
        if (Date.now() + wait > deadline) throw new Error('The wallet provider is rate limited', { cause: err });
        await new Promise((r) => setTimeout(r, wait));
      }
    }
  }

  /** The provider said 429: nobody calls it for `ms`. */
  async pause(ms: number): Promise<void> {
    await this.limiter.block(KEY, Math.max(1, Math.ceil(ms / 1000)));
  }
}
