import { HttpException, HttpStatus, Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { LINK_MESSAGES } from '@seatlink/contracts';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { createRedis } from '../redis/redis-client.js';
import { RedisBreakers } from '../redis/redis-breakers.js';
import { GrowingWaits } from './growing-waits.js';

/**
 * The limits, each counted in its own window:
 * - `login-account-ip`: sign-in attempts on one account from one IP (strict: a stranger locks out only themselves);
 * - `login-account`: sign-in attempts on one account from anywhere (looser: a spread-out attack). Past it a sign-in is
 *   not refused: it needs a second proof (a link e-mailed to the account), so an attacker cannot lock the owner out;
 * - `login-ip`: sign-in attempts from one IP on any account;
 * - `public-ip`: the visitor calls (register, waitlist, forgotten password, e-mail links) from one IP;
 * - `topup-user` / `topup-ip`: card payments tried by one user / from one IP (a succeeded payment gives its try back);
 * - `wallet-sign-in-user` / `wallet-sign-in-ip`: sign-ins to the wallet provider by one user / from one IP (one per
 *   account of a batch; a sign-in that links the account gives its try back);
 * - `mfa-user`: second-factor codes tried on one account (after its password);
 * - `api-key`: calls made with one API key;
 * - `webhook-endpoint`: deliveries asked for by hand (test events, resends) to one webhook endpoint, per minute;
 * - `login-known`: not a limit, a memory: (account, IP) pairs that signed in fully in the last KNOWN_SIGN_IN_DAYS. Past
 *   the account's count, the right password from such an IP signs in without the e-mailed link.
 */
export type ThrottlePolicy =
  | 'login-account-ip'
  | 'login-account'
  | 'login-ip'
  | 'public-ip'
  | 'topup-user'
  | 'topup-ip'
  | 'wallet-sign-in-user'
  | 'wallet-sign-in-ip'
  | 'mfa-user'
  | 'api-key'
  | 'webhook-endpoint'
  | 'login-known';

/** Work a signed-in user asks for that costs money or a shared outside allowance: limited per user and per IP. */
export type AllowanceKind = 'top-up' | 'wallet-sign-in';

export class RateLimitedException extends HttpException {
  /** What is left of the window (set where the call answers RateLimit-* headers). */
  rateLimit?: RateLimitState;
  constructor(retryAfterSeconds: number, message: string) {
    super({ message, code: 'RATE_LIMITED', retryAfterSeconds }, HttpStatus.TOO_MANY_REQUESTS);
  }
}

/** A window's count as the RateLimit-* headers tell it (draft-ietf-httpapi-ratelimit-headers). */
export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Seconds until the window starts again. */
  resetSeconds: number;
}

/** Where RateLimit-* headers are written (a Fastify reply). */
interface HeaderReply {
  getHeader(name: string): unknown;
  header(name: string, value: string): unknown;
}

/**
 * Answers a window's count in the RateLimit-* headers, unless the answer already tells of a window with fewer calls
 * left (a call counted by two limits, its API key's and another, tells of the one nearer its end); a refusal always
 * tells of the window that refused it.
 */
export function answerRateLimit(reply: HeaderReply, state: RateLimitState, refused = false): void {
  const told = reply.getHeader('RateLimit-Remaining');
  if (!refused && told !== undefined && Number(told) < state.remaining) return;
  void reply.header('RateLimit-Limit', String(state.limit));
  void reply.header('RateLimit-Remaining', String(state.remaining));
  void reply.header('RateLimit-Reset', String(state.resetSeconds));
}

/** `{time}` becomes "1 minute" or "N minutes", rounded up. */
export const THROTTLE_MESSAGES = {
  login: 'Too many failed sign-in attempts. Please try again in {time}.',
  public: 'Too many requests. Please try again in {time}.',
  topUp: 'Too many payment attempts. Please try again in {time}.',
  walletSignIn: 'Too many wallet sign-ins. Please try again in {time}.',
  mfa: 'Too many codes tried. Please try again in {time}.',
  apiKey: 'Too many calls with this API key. Please try again in {time}.',
  webhookEndpoint: 'Too many test events and resends to this endpoint. Please try again in {time}.',
} as const;

const inMinutes = (seconds: number) => {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
};

function limited(refusal: RateLimiterRes, message: string): RateLimitedException {
  const seconds = Math.max(1, Math.ceil(refusal.msBeforeNext / 1000));
  return new RateLimitedException(seconds, message.replace('{time}', inMinutes(seconds)));
}

/** Who tries a link's PIN: the address, and the device id its claim page keeps (null: judged by the address only). */
export interface PinTrier {
  ip: string;
  device: string | null;
}

/** How long a device's or address's PIN tries are remembered, from its first: a day. */
export const PIN_TRIES_REMEMBERED_SECONDS = 24 * 60 * 60;

/** What a sign-in attempt may do after its count: go on to the password, or go on but need a second proof. */
export type SignInVerdict = 'allowed' | 'second-proof';

/** What an allowance call took, to give back when the work turns out not to count (see giveBack). */
export interface AllowanceTaken {
  readonly entries: ReadonlyArray<readonly [ThrottlePolicy, string]>;
  readonly points: number;
}

/**
 * How long an (account, IP) that signed in stays known (see `login-known`): as long as a session lives by default.
 * Under 24.8 days, the longest timer Node keeps (the in-memory store expires its keys with timers).
 */
export const KNOWN_SIGN_IN_DAYS = 14;

/** Windows of their own length (the others last THROTTLE_WINDOW_MINUTES). */
const WINDOW_SECONDS: Partial<Record<ThrottlePolicy, number>> = {
  'login-known': KNOWN_SIGN_IN_DAYS * 24 * 60 * 60,
  'webhook-endpoint': 60,
};

const ALLOWANCES: Record<AllowanceKind, { user: ThrottlePolicy; ip: ThrottlePolicy; message: string }> = {
  'top-up': { user: 'topup-user', ip: 'topup-ip', message: THROTTLE_MESSAGES.topUp },
  'wallet-sign-in': { user: 'wallet-sign-in-user', ip: 'wallet-sign-in-ip', message: THROTTLE_MESSAGES.walletSignIn },
};

/**
 * Counting windows shared by every API process (Redis when REDIS_URL is set, this process's memory otherwise), with
 * rate-limiter-flexible. An attempt is counted before the work it limits (consume, then check): parallel attempts
 * cannot all slip through before the first one is counted.
 */
@Injectable()
export class ThrottleService implements OnApplicationShutdown {
  private readonly logger = new Logger('Throttle');
  private readonly limiters: Record<ThrottlePolicy, RateLimiterAbstract>;
  private readonly redis: Redis | null;
  /** PINs tried per device and per address, slowed with growing waits (see takePinTry). */
  private readonly pinWaits: { device: GrowingWaits; ip: GrowingWaits };

  constructor(@Inject(APP_CONFIG) config: AppConfig, breakers: RedisBreakers) {
    const window = config.THROTTLE_WINDOW_MINUTES * 60;
    const limits: Record<ThrottlePolicy, number> = {
      'login-account-ip': config.THROTTLE_LOGIN_ACCOUNT_IP,
      'login-account': config.THROTTLE_LOGIN_ACCOUNT,
      'login-ip': config.THROTTLE_LOGIN_IP,
      'public-ip': config.THROTTLE_PUBLIC_IP,
      'topup-user': config.THROTTLE_TOPUP_USER,
      'topup-ip': config.THROTTLE_TOPUP_IP,
      'wallet-sign-in-user': config.THROTTLE_WALLET_SIGNIN_USER,
      'wallet-sign-in-ip': config.THROTTLE_WALLET_SIGNIN_IP,
      'mfa-user': config.THROTTLE_MFA_USER,
      'api-key': config.THROTTLE_API_KEY,
      'webhook-endpoint': config.THROTTLE_WEBHOOK_ENDPOINT,
      'login-known': 1,
    };
    // The one Redis client of the throttles (every limiter below shares it), counted on request paths (sign-in,
    // visitor calls, top-ups): bounded, so a hung Redis falls back to the memory count in time instead of holding
    // the request; and behind a breaker, so once one call has timed out the next ones count in memory at once.
    this.redis = config.REDIS_URL
      ? createRedis(config.REDIS_URL, 'commands', {
          role: 'throttle',
          commandTimeoutMs: config.REDIS_COMMAND_TIMEOUT_MS,
          breakers,
        })
      : null;
    const make = (policy: ThrottlePolicy): RateLimiterAbstract => {
      const options = {
        points: limits[policy],
        duration: WINDOW_SECONDS[policy] ?? window,
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
    this.limiters = Object.fromEntries(
      (Object.keys(limits) as ThrottlePolicy[]).map((policy) => [policy, make(policy)]),
    ) as Record<ThrottlePolicy, RateLimiterAbstract>;
    const pinWaits = (subject: 'device' | 'ip', free: number) =>
      new GrowingWaits({
        keyPrefix: `${config.REDIS_PREFIX}:throttle:pin-${subject}`,
        free,
        maxWaitSeconds: config.THROTTLE_PIN_MAX_WAIT_SECONDS,
        lifetimeSeconds: PIN_TRIES_REMEMBERED_SECONDS,
        redis: this.redis,
      });
    this.pinWaits = {
      device: pinWaits('device', config.THROTTLE_PIN_DEVICE),
      ip: pinWaits('ip', config.THROTTLE_PIN_IP),
    };
  }

  /**
   * Counts a PIN tried on a link, before it is checked: per device (when the claim page sent its id), then per address.
   * Each lets THROTTLE_PIN_DEVICE / THROTTLE_PIN_IP tries through at once, then one try per wait, the waits doubling
   * from 1 s up to THROTTLE_PIN_MAX_WAIT_SECONDS; a try that must wait is 429 with Retry-After (and counts nothing
   * further: a device that must wait does not spend its address's tries). Nothing is counted per link, so nobody
   * trying wrong PINs slows the recipient on another device and address. Redis failing, it counts in memory, as every
   * limit here does.
   */
  async takePinTry(trier: PinTrier): Promise<void> {
    const subjects: Array<[GrowingWaits, string]> = [];
    if (trier.device) subjects.push([this.pinWaits.device, trier.device]);
    subjects.push([this.pinWaits.ip, trier.ip]);
    for (const [waits, key] of subjects) {
      const ms = await waits.take(key);
      if (ms > 0) {
        const seconds = Math.max(1, Math.ceil(ms / 1000));
        throw new RateLimitedException(seconds, LINK_MESSAGES.pinSlowed(seconds));
      }
    }
  }

  /**
   * The right PIN from a device: its tries start again (its owner claiming more links is not slowed). Its address's are
   * not given back: anyone can bring the right PIN of a link of their own, and that must not buy more guesses.
   */
  async forgivePinDevice(trier: PinTrier): Promise<void> {
    if (!trier.device) return;
    try {
      await this.pinWaits.device.forget(trier.device);
    } catch (err) {
      this.logger.warn(`could not forget a device's PIN tries: ${(err as Error).message}`);
    }
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

  /** As consume, answering what is left of the window; a refusal carries it too (`rateLimit`). */
  async consumeMeasured(policy: ThrottlePolicy, key: string, message: string): Promise<RateLimitState> {
    const limiter = this.limiters[policy];
    const state = (res: RateLimiterRes): RateLimitState => ({
      limit: limiter.points,
      remaining: Math.max(0, res.remainingPoints),
      resetSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
    });
    try {
      return state(await limiter.consume(key));
    } catch (err) {
      if (!(err instanceof RateLimiterRes)) throw err;
      const refusal = limited(err, message);
      refusal.rateLimit = state(err);
      throw refusal;
    }
  }

  /**
   * Counts a sign-in attempt, before the password is checked, on each limit in turn — per IP, per account from this
   * IP, per account — and throws 429 at the first per-IP one spent. An attempt refused by one limit is not counted by
   * the next: a stranger who exhausts the account's count from their IP does not use up the account's wider count.
   *
   * The account's count from anywhere refuses nobody: anyone can spend it from enough addresses, and refusing there
   * would lock the owner out. Past it the attempt still counts and goes on, but answers `second-proof`: even the right
   * password signs in only through a link e-mailed to the account.
   */
  async consumeSignIn(account: string, ip: string): Promise<SignInVerdict> {
    await this.consume('login-ip', ip, THROTTLE_MESSAGES.login);
    await this.consume('login-account-ip', `${account}|${ip}`, THROTTLE_MESSAGES.login);
    try {
      await this.limiters['login-account'].consume(account);
      return 'allowed';
    } catch (err) {
      if (err instanceof RateLimiterRes) return 'second-proof';
      throw err;
    }
  }

  /** A full sign-in (the session made) from this IP: past the account's count, this IP needs no second proof. */
  async rememberSignIn(account: string, ip: string): Promise<void> {
    try {
      await this.limiters['login-known'].set(`${account}|${ip}`, 1, KNOWN_SIGN_IN_DAYS * 24 * 60 * 60);
    } catch (err) {
      this.logger.warn(`could not remember a sign-in: ${(err as Error).message}`);
    }
  }

  /** Whether the account signed in fully from this IP in the last KNOWN_SIGN_IN_DAYS (see rememberSignIn). */
  async knownSignIn(account: string, ip: string): Promise<boolean> {
    try {
      return (await this.limiters['login-known'].get(`${account}|${ip}`)) !== null;
    } catch {
      return false;
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

  /**
   * Takes `points` of an allowance, per IP then per user, before the work runs; throws 429 when either is spent.
   * Atomic per limit (an increment in Redis or in memory), so a burst of parallel calls cannot all slip through before
   * the first is counted. A refused call takes nothing: what it counted is given back at once, so a batch too big for
   * what is left does not use up the rest of the window.
   */
  async takeAllowance(
    kind: AllowanceKind,
    subject: { userId: string | null; ip: string },
    points: number,
  ): Promise<AllowanceTaken> {
    const { user, ip, message } = ALLOWANCES[kind];
    const entries: Array<[ThrottlePolicy, string]> = [[ip, subject.ip]];
    if (subject.userId) entries.push([user, subject.userId]);
    const taken: Array<[ThrottlePolicy, string]> = [];
    for (const [policy, key] of entries) {
      try {
        await this.limiters[policy].consume(key, points);
        taken.push([policy, key]);
      } catch (err) {
        await Promise.all(
          [...taken, ...(err instanceof RateLimiterRes ? [[policy, key] as [ThrottlePolicy, string]] : [])].map(
            ([p, k]) => this.limiters[p].reward(k, points).catch(() => undefined),
          ),
        );
        if (err instanceof RateLimiterRes) throw limited(err, message);
        throw err;
      }
    }
    return { entries: taken, points };
  }

  /**
   * Gives back up to `points` of what takeAllowance took (work that turned out not to count: a payment that succeeded,
   * a wallet that linked). Never more than was taken, and nothing into a window that has passed meanwhile (that would
   * lend the next window an extra allowance). Best effort: a failure to give back leaves the count higher, never lower.
   */
  async giveBack(taken: AllowanceTaken, points: number): Promise<void> {
    const back = Math.min(Math.max(0, Math.floor(points)), taken.points);
    if (back === 0) return;
    await Promise.all(
      taken.entries.map(async ([policy, key]) => {
        try {
          const current = await this.limiters[policy].get(key);
          if (current && current.consumedPoints >= back) await this.limiters[policy].reward(key, back);
        } catch (err) {
          this.logger.warn(`could not give back ${policy} attempts: ${(err as Error).message}`);
        }
      }),
    );
  }

  async onApplicationShutdown() {
    this.redis?.disconnect();
  }
}
