import { Logger } from '@nestjs/common';
import { Redis } from 'ioredis';
import { throttledWarning } from '../../shared/throttled-warning.js';
import { safeErrorMessage } from '../db/db-errors.js';

const logger = new Logger('Realtime');
const warn = throttledWarning((message) => logger.warn(message));

/**
 * A Redis client that carries live updates (socket.io's Redis adapter, or the worker's emitter) and survives Redis
 * going away.
 * - socket.io's adapter and emitter call PUBLISH and drop its promise (socket.io-redis-emitter#139). While Redis is
 *   away a publish waits in the client's queue (and goes out when Redis is back); once it is given up, or the client
 *   is closed, that promise rejects with nobody to catch it, and Node ends a process on an unhandled rejection. Live
 *   updates are best effort, so a publish that fails is reported, not thrown.
 * - Connection errors are reported too, at most one line per client every 10 s, instead of ioredis' "Unhandled error
 *   event" on every reconnect.
 */
export function liveUpdateRedis(url: string, role: string): Redis {
  const redis = new Redis(url);
  watchErrors(redis, role);
  const publish = redis.publish.bind(redis) as (...args: unknown[]) => Promise<number>;
  redis.publish = (...args: unknown[]) => {
    const sent = publish(...args);
    sent.catch((err: unknown) =>
      warn(`${role}:publish`, `live update not sent through Redis: ${safeErrorMessage(err)}`),
    );
    return sent;
  };
  return redis;
}

/** Reports the connection errors of a client (its own, or one made with `duplicate()`), now and then. */
export function watchErrors(redis: Redis, role: string): Redis {
  redis.on('error', (err: unknown) => warn(role, `Redis (${role}): ${safeErrorMessage(err)}`));
  return redis;
}
