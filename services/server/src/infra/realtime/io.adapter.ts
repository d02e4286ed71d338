import type { INestApplicationContext } from '@nestjs/common';
import { Logger } from '@nestjs/common';
import { IoAdapter } from '@nestjs/platform-socket.io';
import { createAdapter, createShardedAdapter } from '@socket.io/redis-adapter';
import type { Redis } from 'ioredis';
import type { Server, ServerOptions } from 'socket.io';
import { closeRedis, createRedis, isClusterSeed } from '../redis/redis-client.js';
import { liveUpdateRedis } from './live-update-redis.js';

/**
 * socket.io's Redis adapter: on a single Redis its classic pub/sub; on a Redis Cluster its sharded pub/sub (SPUBLISH to
 * the node of each channel's slot, not a broadcast to every node), channels under `key`.
 */
export function redisAdapter(url: string, key: string, pub: Redis, sub: Redis): Parameters<Server['adapter']>[0] {
  return isClusterSeed(url) ? createShardedAdapter(pub, sub, { channelPrefix: key }) : createAdapter(pub, sub, { key });
}

/** How often an API process checks that Redis carries the live updates of the other processes. */
const PROBE_MS = 2000;

/**
 * The socket.io server of an API process. Only the dashboard's origin may open a socket with the session cookie: CORS
 * for the polling transport, and an Origin check on every handshake (a WebSocket upgrade is not subject to CORS).
 * With Redis, socket.io runs over Redis pub/sub, so an emit on any process (or a worker's emitter) reaches every
 * browser. While Redis does not carry them (away, or hung), this process's sockets are told `live.interrupted` (the
 * dashboard says its figures may be out of date), and `live.restored` once it does again (the dashboard reads again
 * what a push may have missed).
 */
export class SeatlinkIoAdapter extends IoAdapter {
  private pub: Redis | null = null;
  private sub: Redis | null = null;
  private probe: NodeJS.Timeout | null = null;
  private readonly log = new Logger('Realtime');

  constructor(
    app: INestApplicationContext,
    private readonly options: {
      dashboardOrigin: string;
      redis?: { url: string; key: string; commandTimeoutMs?: number };
    },
  ) {
    super(app);
  }

  override createIOServer(port: number, options?: ServerOptions): Server {
    const origin = this.options.dashboardOrigin;
    const server = super.createIOServer(port, {
      ...options,
      cors: { origin, credentials: true },
      // Browsers always send Origin on a handshake; a request without one is not a browser (no cookie to misuse).
      allowRequest: (req, callback) => {
        const from = req.headers.origin;
        callback(null, from === undefined || from === origin);
      },
    } as ServerOptions);
    const redis = this.options.redis;
    if (redis) {
      this.pub = liveUpdateRedis(redis.url, 'socket.io publisher', redis.commandTimeoutMs);
      this.sub = createRedis(redis.url, 'subscribe', { role: 'socket.io subscriber' });
      server.adapter(redisAdapter(redis.url, redis.key, this.pub, this.sub));
      this.watchRedis(server, this.pub, this.sub);
    }
    return server;
  }

  /** Tells this process's sockets when live updates stop crossing processes, and when they flow again. */
  private watchRedis(server: Server, pub: Redis, sub: Redis) {
    let interrupted = false;
    const check = async () => {
      const carried =
        sub.status === 'ready' &&
        (await pub.ping().then(
          () => true,
          () => false,
        ));
      if (carried === !interrupted) return;
      interrupted = !carried;
      if (interrupted) {
        this.log.warn('Redis does not carry live updates: dashboards are told theirs may be out of date');
        server.local.emit('live.interrupted', { reason: 'redis' });
      } else {
        this.log.log('Redis carries live updates again: dashboards read their data again');
        server.local.emit('live.restored', {});
      }
    };
    server.on('connection', (socket) => {
      if (interrupted) socket.emit('live.interrupted', { reason: 'redis' });
    });
    this.probe = setInterval(() => void check(), PROBE_MS);
    this.probe.unref();
  }

  override async close(server: Server): Promise<void> {
    if (this.probe) clearInterval(this.probe);
    await super.close(server);
    await Promise.allSettled([this.pub && closeRedis(this.pub), this.sub && closeRedis(this.sub)]);
  }
}
