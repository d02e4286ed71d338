import { Logger } from '@nestjs/common';
import { Redis, type RedisOptions } from 'ioredis';
import { safeErrorMessage } from '../db/db-errors.js';
import { withDeadline } from '../../shared/deadline.js';
import { throttledWarning } from '../../shared/throttled-warning.js';
import { RedisBreakerOpenError } from './redis-breaker.js';
import type { RedisBreakers } from './redis-breakers.js';

const logger = new Logger('Redis');
const warn = throttledWarning((message) => logger.warn(message));

/** How long a Redis command may take by default before it fails (REDIS_COMMAND_TIMEOUT_MS). */
const DEFAULT_REDIS_COMMAND_TIMEOUT_MS = 1000;

/**
 * What a client is for, which decides how it behaves when Redis is away (refused) or hung (stopped, not answering):
 * - `commands`: calls a request waits on (job adds, throttles, the provider's pace, health): each fails after the
 *   command timeout, and at once while the connection is down (no offline queue), so a request answers 503 instead of
 *   hanging; given `breakers`, at once too for a moment after a timeout (a hung Redis: see redis-breaker.ts);
 * - `publish`: live updates, best effort: the same bounds; a publish that fails is reported, never thrown; the
 *   publishes made in one turn of the event loop (a command's several updates) go out in one write;
 * - `subscribe`: a pub/sub subscriber: it waits out a reconnect and subscribes again by itself;
 * - `blocking`: BullMQ workers' blocking reads, which must wait out a reconnect (no timeout, retries unbounded).
 */
export type RedisUse = 'commands' | 'publish' | 'subscribe' | 'blocking';

export interface RedisClientOptions {
  /** Names the client in the log. */
  role: string;
  commandTimeoutMs?: number;
  /** Connect on first use instead of at once (a template other clients are duplicated from). */
  lazyConnect?: boolean;
  /** A circuit breaker in front of its commands, from these (a `commands` client on request paths). */
  breakers?: RedisBreakers;
}

/** Fails after the command timeout, and at once while the connection is down. */
const bounded = (timeoutMs: number): RedisOptions => ({
  commandTimeout: timeoutMs,
  enableOfflineQueue: false,
  maxRetriesPerRequest: 1,
});

const BY_USE: Record<RedisUse, (timeoutMs: number) => RedisOptions> = {
  commands: bounded,
  publish: (timeoutMs) => ({ ...bounded(timeoutMs), enableAutoPipelining: true }),
  subscribe: () => ({}),
  blocking: () => ({ maxRetriesPerRequest: null }),
};

/**
 * Every Redis client of the product is made here, so each has the bounds of its use, a connect timeout (a connection
 * to a hung server does not wait for ever), reconnects with capped backoff, and reports its errors now and then
 * instead of ioredis' "Unhandled error event" on every reconnect.
 */
export function createRedis(url: string, use: RedisUse, options: RedisClientOptions): Redis {
  const timeoutMs = options.commandTimeoutMs ?? DEFAULT_REDIS_COMMAND_TIMEOUT_MS;
  const redis = new Redis(url, {
    connectTimeout: Math.max(2000, timeoutMs),
    retryStrategy: (times) => Math.min(100 * 2 ** Math.min(times, 5), 2000),
    ...(options.lazyConnect ? { lazyConnect: true } : {}),
    ...BY_USE[use](timeoutMs),
  });
  // Its connection errors, now and then.
  redis.on('error', (err: unknown) => warn(options.role, `Redis (${options.role}): ${safeErrorMessage(err)}`));
  return options.breakers ? options.breakers.guard(redis, options.role) : redis;
}

/** Redis did not answer within the bound a request waits for it. */
export class RedisUnavailableError extends Error {
  constructor(what: string) {
    super(`Redis did not answer in time (${what})`);
    this.name = 'RedisUnavailableError';
  }
}

/**
 * `work` that talks to Redis, failed with RedisUnavailableError past `ms`: for calls that wait on more than one
 * command, or on a connection that is still being made (BullMQ waits for one without a bound).
 */
export function withinRedisBound<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  return withDeadline(work, ms, () => new RedisUnavailableError(what));
}

/**
 * Whether an error says Redis could not be reached or did not answer in time (refused, closed, hung past the command
 * timeout, or a call its breaker failed at once after such a timeout), rather than that the command was wrong: the
 * caller answers 503 and may try again.
 */
export function isRedisUnavailableError(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  if (err instanceof RedisUnavailableError || err instanceof RedisBreakerOpenError) return true;
  if (err.name === 'MaxRetriesPerRequestError') return true;
  return /^(Command timed out|Connection is closed\.?|Stream isn't writeable and enableOfflineQueue options is false)/.test(
    err.message,
  );
}

/** Closes a client: QUIT when it is connected (pending replies arrive), else drops the connection. */
export async function closeRedis(client: Redis): Promise<void> {
  if (client.status === 'ready') {
    try {
      await client.quit();
      return;
    } catch {
      // Fall through: drop the connection instead.
    }
  }
  client.disconnect();
}
