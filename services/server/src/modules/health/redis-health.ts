import type { Redis } from 'ioredis';
import { closeRedis, createRedis, withinRedisBound } from '../../infra/redis/redis-client.js';

export const REDIS_HEALTH = Symbol('RedisHealth');

/** Whether Redis answers, within the command timeout: a hung Redis counts as down, and never hangs the check. */
export class RedisHealth {
  private readonly client: Redis;

  constructor(
    url: string,
    private readonly timeoutMs: number,
  ) {
    this.client = createRedis(url, 'commands', { role: 'health', commandTimeoutMs: timeoutMs });
  }

  async ping(): Promise<boolean> {
    try {
      return (await withinRedisBound(this.client.ping(), this.timeoutMs, 'ping')) === 'PONG';
    } catch {
      return false;
    }
  }

  async close() {
    await closeRedis(this.client);
  }
}
