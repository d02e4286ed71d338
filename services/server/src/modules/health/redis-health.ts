import { Redis } from 'ioredis';

export const REDIS_HEALTH = Symbol('RedisHealth');

export class RedisHealth {
  private readonly client: Redis;

  constructor(url: string) {
    this.client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1, enableOfflineQueue: false });
    this.client.on('error', () => undefined);
  }

  async ping(): Promise<boolean> {
    try {
      if (this.client.status === 'wait') await this.client.connect();
      return (await this.client.ping()) === 'PONG';
    } catch {
      return false;
    }
  }

  async close() {
    this.client.disconnect();
  }
}
