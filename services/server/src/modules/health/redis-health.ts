import { Redis } from 'ioredis';

export const REDIS_HEALTH = Symbol('RedisHealth');

export class RedisHealth {
  private readonly client: Redis;
  /** One connection attempt at a time: checks arriving together wait for the same one. */
  private connecting: Promise<void> | null = null;

  constructor(url: string) {
    this.client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1, enableOfflineQueue: false });
    this.client.on('error', () => undefined);
  }

  async ping(): Promise<boolean> {
    try {
      if (this.client.status === 'wait' || this.client.status === 'end') {
        this.connecting ??= this.client.connect().finally(() => (this.connecting = null));
      }
      if (this.connecting) await this.connecting;
      return (await this.client.ping()) === 'PONG';
    } catch {
      return false;
    }
  }

  async close() {
    this.client.disconnect();
  }
}
