import { Logger } from '@nestjs/common';
import { Cluster, Redis, type RedisOptions } from 'ioredis';
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
  const nodeOptions: RedisOptions = {
    connectTimeout: Math.max(2000, timeoutMs),
    retryStrategy: (times) => Math.min(100 * 2 ** Math.min(times, 5), 2000),
    ...(options.lazyConnect ? { lazyConnect: true } : {}),
    ...BY_USE[use](timeoutMs),
  };
  const redis = isClusterSeed(url) ? clusterClient(url, nodeOptions, use === 'subscribe') : new Redis(url, nodeOptions);
  // Its connection errors, now and then.
  redis.on('error', (err: unknown) => warn(options.role, `Redis (${options.role}): ${safeErrorMessage(err)}`));
  return options.breakers ? options.breakers.guard(redis, options.role) : redis;
}

const clusterSeeds = new Set<string>();

/**
 * REDIS_CLUSTER=true: `url` names a seed node of a Redis Cluster, and every client made for it is an ioredis Cluster
 * client (it finds the other nodes, follows slots as they move, and retries while a failed master's replica takes
 * over). Said once at start, before any client is made (app.module.ts).
 */
export function useRedisCluster(url: string): void {
  clusterSeeds.add(url);
}

/** Whether `url` names a node of a Redis Cluster (REDIS_CLUSTER=true). */
export function isClusterSeed(url: string): boolean {
  return clusterSeeds.has(url);
}

/**
 * A Redis Cluster's client, with each node's connection as a single server's would be and the bounds of its use at the
 * cluster's level (the offline queue, the command timeout). While a slot has no master (a failover: the replica takes
 * over within the nodes' timeout) a command is retried for about two seconds, then fails as Redis being away does.
 * Used where a `Redis` is: both send the same commands.
 */
function clusterClient(url: string, nodeOptions: RedisOptions, subscriber: boolean): Redis {
  const seed = new URL(url);
  // Options of the cluster, not of its nodes; live updates are not auto-pipelined on a cluster (one pipeline per slot).
  const {
    enableOfflineQueue,
    lazyConnect,
    retryStrategy,
    enableAutoPipelining: _batched,
    ...redisOptions
  } = nodeOptions;
  const cluster = new Cluster([{ host: seed.hostname, port: Number(seed.port || 6379) }], {
    redisOptions: {
      ...redisOptions,
      ...(seed.password ? { password: decodeURIComponent(seed.password) } : {}),
      ...(seed.username ? { username: decodeURIComponent(seed.username) } : {}),
    },
    ...(enableOfflineQueue === false ? { enableOfflineQueue: false } : {}),
    ...(lazyConnect ? { lazyConnect: true } : {}),
    // A subscriber's sharded subscriptions (socket.io's sharded adapter) go to the node that owns each channel.
    ...(subscriber ? { shardedSubscribers: true } : {}),
    clusterRetryStrategy: (times) => retryStrategy?.(times) ?? 2000,
    retryDelayOnClusterDown: 200,
    retryDelayOnFailover: 200,
    retryDelayOnTryAgain: 200,
    maxRedirections: 10,
    slotsRefreshTimeout: 2000,
  });
  return cluster as unknown as Redis;
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
  // The last three are a Redis Cluster's: not formed yet (or its seed away), and a slot whose master and replica are
  // both gone.
  return /^(Command timed out|Connection is closed\.?|Stream isn't writeable and enableOfflineQueue options is false|Cluster isn't ready and enableOfflineQueue options is false|Too many Cluster redirections|CLUSTERDOWN)/.test(
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
