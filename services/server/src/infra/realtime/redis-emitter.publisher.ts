import { Emitter } from '@socket.io/redis-emitter';
import type { Redis } from 'ioredis';
import { Server } from 'socket.io';
import { userRoom } from '@seatlink/contracts';
import type { LiveUpdate } from '../subscriptions/subscription.js';
import { messagesOf } from './realtime.gateway.js';
import type { RealtimePublisher } from './realtime.publisher.js';
import { liveUpdateRedis } from './live-update-redis.js';
import { closeRedis, createRedis, isClusterSeed } from '../redis/redis-client.js';
import { redisAdapter } from './io.adapter.js';
import { sessionRoom } from './socket-authenticator.port.js';

/** What the publisher needs of socket.io's emitter (or of a server of no sockets of its own). */
interface Broadcaster {
  to(rooms: string | string[]): { emit(event: string, payload: unknown): unknown };
  in(room: string): { disconnectSockets(close: boolean): unknown };
}

/**
 * Used by a worker process: emits through Redis to the socket.io servers of every API process. On a single Redis,
 * socket.io's Redis emitter; on a Redis Cluster, whose API processes listen on sharded pub/sub (which the emitter does
 * not speak), a socket.io server with no sockets of its own on the same sharded adapter, which sends each emit on to
 * theirs.
 */
export class RedisEmitterPublisher implements RealtimePublisher {
  private readonly redis: Redis;
  private readonly subscriber: Redis | null = null;
  private readonly server: Server | null = null;
  private readonly emitter: Broadcaster;

  constructor(redisUrl: string, key: string, commandTimeoutMs?: number) {
    this.redis = liveUpdateRedis(redisUrl, 'emitter', commandTimeoutMs);
    if (isClusterSeed(redisUrl)) {
      this.subscriber = createRedis(redisUrl, 'subscribe', { role: 'emitter subscriber' });
      this.server = new Server();
      this.server.adapter(redisAdapter(redisUrl, key, this.redis, this.subscriber));
      this.emitter = this.server;
    } else {
      this.emitter = new Emitter(this.redis, { key });
    }
  }

  publish(updates: readonly LiveUpdate[]) {
    for (const m of messagesOf(updates)) this.emitter.to(m.rooms).emit(m.event, m.payload);
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
    // Its adapter's subscriptions end (the server itself listens on nothing).
    await this.server?.of('/').adapter.close();
    await Promise.allSettled([closeRedis(this.redis), this.subscriber && closeRedis(this.subscriber)]);
  }
}
