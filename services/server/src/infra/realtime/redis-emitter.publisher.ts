import { Emitter } from '@socket.io/redis-emitter';
import type { Redis } from 'ioredis';
import { userRoom } from '@seatlink/contracts';
import type { LiveUpdate } from '../subscriptions/subscription.js';
import { messagesOf } from './realtime.gateway.js';
import type { RealtimePublisher } from './realtime.publisher.js';
import { liveUpdateRedis } from './live-update-redis.js';
import { closeRedis } from '../redis/redis-client.js';
import { sessionRoom } from './socket-authenticator.port.js';

/** Used by a worker process: emits through Redis to the socket.io servers of every API process. */
export class RedisEmitterPublisher implements RealtimePublisher {
  private readonly redis: Redis;
  private readonly emitter: Emitter;

  constructor(redisUrl: string, key: string, commandTimeoutMs?: number) {
    this.redis = liveUpdateRedis(redisUrl, 'emitter', commandTimeoutMs);
    this.emitter = new Emitter(this.redis, { key });
  }

  publish(updates: readonly LiveUpdate[]) {
    for (const m of messagesOf(updates)) {
      (this.emitter.to(m.rooms).emit as (ev: string, payload: unknown) => boolean)(m.event, m.payload);
    }
  }

  disconnectUser(userId: string, reason: string) {
    this.closeRoom(userRoom(userId), reason);
  }

  disconnectSession(sessionId: string, reason: string) {
    this.closeRoom(sessionRoom(sessionId), reason);
  }

  private closeRoom(room: string, reason: string) {
    this.emitter.to(room).emit('session.ended', { reason });
    this.emitter.in(room).disconnectSockets(true);
  }

  async close() {
    await closeRedis(this.redis);
  }
}
