import { HttpException, HttpStatus, Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { createRedis } from '../redis/redis-client.js';

/**
 * The limits, each counted in its own window:
 * - `login-account-ip`: sign-in attempts on one account from one IP (strict: a stranger locks out only themselves);
 * - `login-account`: sign-in attempts on one account from anywhere (looser: a spread-out attack);
 * - `login-ip`: sign-in attempts from one IP on any account;
 * - `public-ip`: the visitor calls (register, waitlist, forgotten password, e-mail links) from one IP.
 */
export type ThrottlePolicy = 'login-account-ip' | 'login-account' | 'login-ip' | 'public-ip';

export class RateLimitedException extends HttpException {
  constructor(retryAfterSeconds: number, message: string) {
    super({ message, code: 'RATE_LIMITED', retryAfterSeconds }, HttpStatus.TOO_MANY_REQUESTS);
  }
}

export const THROTTLE_MESSAGES = {
  login: 'Too many failed sign-in attempts. Please try again in {minutes} minutes.',
  public: 'Too many requests. Please try again in {minutes} minutes.',
} as const;

const minutes = (seconds: number) => Math.max(1, Math.ceil(seconds / 60));

function limited(refusal: RateLimiterRes, message: string): RateLimitedException {
  const seconds = Math.max(1, Math.ceil(refusal.msBeforeNext / 1000));
  return new RateLimitedException(seconds, message.replace('{minutes}', String(minutes(seconds))));
}

/**
 * Counting windows shared by every API process (Redis when REDIS_URL is set, this process's memory otherwise), with
 * rate-limiter-flexible. An attempt is counted before the work it limits (consume, then check): parallel attempts
 * cannot all slip through before the first one is counted.
 */
@Injectable()
export class ThrottleService implements OnApplicationShutdown {
  private readonly limiters: Record<ThrottlePolicy, RateLimiterAbstract>;
  private readonly redis: Redis | null;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    const window = config.THROTTLE_WINDOW_MINUTES * 60;
    const limits: Record<ThrottlePolicy, number> = {
      'login-account-ip': config.THROTTLE_LOGIN_ACCOUNT_IP,
      'login-account': config.THROTTLE_LOGIN_ACCOUNT,
      'login-ip': config.THROTTLE_LOGIN_IP,
      'public-ip': config.THROTTLE_PUBLIC_IP,
    };
    // Counted on request paths (sign-in, visitor calls): bounded, so a hung Redis falls back to the memory count in
    // time instead of holding the request.
    this.redis = config.REDIS_URL
      ? createRedis(config.REDIS_URL, 'commands', {
          role: 'throttle',
          commandTimeoutMs: config.REDIS_COMMAND_TIMEOUT_MS,
        })
      : null;
    const make = (policy: ThrottlePolicy): RateLimiterAbstract => {
      const options = {
        points: limits[policy],
        duration: window,
        keyPrefix: `${config.REDIS_PREFIX}:throttle:${policy}`,
      };
      // If Redis is unreachable, fall back to counting in memory rather than failing every call.
      return this.redis
        ? new RateLimiterRedis({
            ...options,
            storeClient: this.redis,
            insuranceLimiter: new RateLimiterMemory(options),
          })
        : new RateLimiterMemory(options);
    };
    this.limiters = {
      'login-account-ip': make('login-account-ip'),
      'login-account': make('login-account'),
      'login-ip': make('login-ip'),
      'public-ip': make('public-ip'),
    };
  }

  /** Counts one attempt; throws 429 when that was one too many. */
  async consume(policy: ThrottlePolicy, key: string, message: string): Promise<void> {
    try {
      await this.limiters[policy].consume(key);
    } catch (err) {
      if (err instanceof RateLimiterRes) throw limited(err, message);
      throw err;
    }
  }

  /**
   * Counts a sign-in attempt, before the password is checked, on each limit in turn — per IP, per account from this
   * IP, per account — and throws 429 at the first one spent. An attempt refused by one limit is not counted by the
   * next: a stranger who exhausts the account's count from their IP does not use up the account's wider count.
   */
  async consumeSignIn(account: string, ip: string): Promise<void> {
    for (const [policy, key] of this.signInKeys(account, ip)) {
      await this.consume(policy, key, THROTTLE_MESSAGES.login);
    }
  }

  /** A sign-in with the right password: it was no failure. The account's count from that IP starts again. */
  async forgiveSignIn(account: string, ip: string): Promise<void> {
    await Promise.all([
      this.limiters['login-account-ip'].delete(`${account}|${ip}`),
      this.limiters['login-account'].reward(account, 1),
      this.limiters['login-ip'].reward(ip, 1),
    ]);
  }

  private signInKeys(account: string, ip: string): Array<[ThrottlePolicy, string]> {
    return [
      ['login-ip', ip],
      ['login-account-ip', `${account}|${ip}`],
      ['login-account', account],
    ];
  }

  async onApplicationShutdown() {
    this.redis?.disconnect();
  }
}
