import type { Redis } from 'ioredis';
import { closeRedis, createRedis } from '../../infra/redis/redis-client.js';

export const REDIS_HEALTH = Symbol('RedisHealth');

/** Whether Redis answers, within the command timeout: a hung Redis counts as down, and never hangs the check. */
export class RedisHealth {
  private readonly client: Redis;

  constructor(url: string, timeoutMs: number) {
    this.client = createRedis(url, 'commands', { role: 'health', commandTimeoutMs: timeoutMs });
  }

  /** Bounded by the client's command timeout (and refused at once while the connection is down). */
  async ping(): Promise<boolean> {
    try {
      return (await this.client.ping()) === 'PONG';
    } catch {
      return false;
    }
  }

  async close() {
    await closeRedis(this.client);
  }
}
