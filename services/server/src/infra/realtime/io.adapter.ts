import type { INestApplicationContext } from '@nestjs/common';
import { IoAdapter } from '@nestjs/platform-socket.io';
import { createAdapter } from '@socket.io/redis-adapter';
import { Redis } from 'ioredis';
import type { Server, ServerOptions } from 'socket.io';
import { liveUpdateRedis, watchErrors } from './live-update-redis.js';

/**
 * The socket.io server of an API process. Only the dashboard's origin may open a socket with the session cookie: CORS
 * for the polling transport, and an Origin check on every handshake (a WebSocket upgrade is not subject to CORS).
 * With Redis, socket.io runs over Redis pub/sub, so an emit on any process (or a worker's emitter) reaches every
 * browser.
 */
export class SeatlinkIoAdapter extends IoAdapter {
  private pub: Redis | null = null;
  private sub: Redis | null = null;

  constructor(
    app: INestApplicationContext,
    private readonly options: { dashboardOrigin: string; redis?: { url: string; key: string } },
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
    if (this.options.redis) {
      this.pub = liveUpdateRedis(this.options.redis.url, 'socket.io publisher');
      this.sub = watchErrors(this.pub.duplicate(), 'socket.io subscriber');
      server.adapter(createAdapter(this.pub, this.sub, { key: this.options.redis.key }));
    }
    return server;
  }

  override async close(server: Server): Promise<void> {
    await super.close(server);
    await Promise.allSettled([this.pub?.quit(), this.sub?.quit()]);
  }
}
