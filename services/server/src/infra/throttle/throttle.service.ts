import { HttpException, HttpStatus, Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { APP_CONFIG, type AppConfig } from '../config/config.js';

/** The limits: failed sign-ins per account and per IP, and the public POST endpoints per IP. */
export type ThrottlePolicy = 'login-account' | 'login-ip' | 'public-ip';

export class RateLimitedException extends HttpException {
  constructor(retryAfterSeconds: number, message: string) {
    super({ message, code: 'RATE_LIMITED', retryAfterSeconds }, HttpStatus.TOO_MANY_REQUESTS);
  }
}

const minutes = (seconds: number) => Math.max(1, Math.ceil(seconds / 60));

/**
 * Counting windows shared by every API process (Redis when REDIS_URL is set, this process's memory otherwise), with
 * rate-limiter-flexible.
 */
@Injectable()
export class ThrottleService implements OnApplicationShutdown {
  private readonly limiters: Record<ThrottlePolicy, RateLimiterAbstract>;
  private readonly redis: Redis | null;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    const window = config.THROTTLE_WINDOW_MINUTES * 60;
    const limits: Record<ThrottlePolicy, number> = {
      'login-account': config.THROTTLE_LOGIN_ACCOUNT,
      'login-ip': config.THROTTLE_LOGIN_IP,
      'public-ip': config.THROTTLE_PUBLIC_IP,
    };
    this.redis = config.REDIS_URL ? new Redis(config.REDIS_URL, { enableOfflineQueue: false }) : null;
    this.redis?.on('error', () => undefined);
    const make = (policy: ThrottlePolicy): RateLimiterAbstract => {
      const options = {
        points: limits[policy],
        duration: window,
        keyPrefix: `${config.REDIS_PREFIX}:throttle:${policy}`,
      };
      // If Redis is unreachable, fall back to counting in memory rather than failing every sign-in.
      return this.redis
        ? new RateLimiterRedis({
            ...options,
            storeClient: this.redis,
            insuranceLimiter: new RateLimiterMemory(options),
          })
        : new RateLimiterMemory(options);
    };
    this.limiters = {
      'login-account': make('login-account'),
      'login-ip': make('login-ip'),
      'public-ip': make('public-ip'),
    };
  }

  /** Throws 429 when the key has no attempts left; counts nothing. */
  async assertAllowed(policy: ThrottlePolicy, key: string, message: string): Promise<void> {
    const res = await this.limiters[policy].get(key);
    if (res && res.consumedPoints >= this.limiters[policy].points) {
      const seconds = Math.ceil(res.msBeforeNext / 1000);
      throw new RateLimitedException(seconds, message.replace('{minutes}', String(minutes(seconds))));
    }
  }

  /** Counts one attempt; throws 429 when that was one too many. */
  async consume(policy: ThrottlePolicy, key: string, message: string): Promise<void> {
    try {
      await this.limiters[policy].consume(key);
    } catch (err) {
      if (err instanceof RateLimiterRes) {
        const seconds = Math.ceil(err.msBeforeNext / 1000);
        throw new RateLimitedException(seconds, message.replace('{minutes}', String(minutes(seconds))));
      }
      throw err;
    }
  }

  /** Counts one failure without throwing. */
  async penalize(policy: ThrottlePolicy, key: string): Promise<void> {
    await this.limiters[policy].penalty(key, 1);
  }

  async reset(policy: ThrottlePolicy, key: string): Promise<void> {
    await this.limiters[policy].delete(key);
  }

  async onApplicationShutdown() {
    this.redis?.disconnect();
  }
}

export const THROTTLE_MESSAGES = {
  login: 'Too many failed sign-in attempts. Please try again in {minutes} minutes.',
  public: 'Too many requests. Please try again in {minutes} minutes.',
} as const;
