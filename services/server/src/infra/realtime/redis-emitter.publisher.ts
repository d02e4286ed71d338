import { Emitter } from '@socket.io/redis-emitter';
import { Redis } from 'ioredis';
import type { LiveUpdate } from '../projections/projection.js';
import { roomOf } from './realtime.gateway.js';
import type { RealtimePublisher } from './realtime.publisher.js';

/** Used by a worker process: emits through Redis to the socket.io servers of every API process. */
export class RedisEmitterPublisher implements RealtimePublisher {
  private readonly redis: Redis;
  private readonly emitter: Emitter;

  constructor(redisUrl: string, key: string) {
    this.redis = new Redis(redisUrl);
    this.emitter = new Emitter(this.redis, { key });
  }

  publish(updates: readonly LiveUpdate[]) {
    for (const u of updates) {
      (this.emitter.to(roomOf(u)).emit as (ev: string, payload: unknown) => boolean)(u.event, u.payload);
    }
  }

  async close() {
    await this.redis.quit();
  }
}
