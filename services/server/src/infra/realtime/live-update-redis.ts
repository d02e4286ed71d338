import { Logger } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { throttledWarning } from '../../shared/throttled-warning.js';
import { safeErrorMessage } from '../db/db-errors.js';
import { createRedis } from '../redis/redis-client.js';

const logger = new Logger('Realtime');
const warn = throttledWarning((message) => logger.warn(message));

/**
 * A Redis client that carries live updates (socket.io's Redis adapter, or the worker's emitter), bounded like every
 * client a request may wait on (a hung or absent Redis fails a publish fast instead of piling them up), and whose
 * publishes never throw: socket.io's adapter and emitter call PUBLISH and drop its promise
 * (socket.io-redis-emitter#139); a rejection nobody catches would end the process. Live updates are best effort, so
 * a publish that fails is reported (now and then), and the dashboards are told to read again when Redis is back.
 */
export function liveUpdateRedis(url: string, role: string, commandTimeoutMs?: number): Redis {
  const redis = createRedis(url, 'publish', { role, commandTimeoutMs });
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
