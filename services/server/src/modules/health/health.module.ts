import { Module, type DynamicModule, type OnApplicationShutdown, Inject, Optional } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { AdminOperationsController } from './admin-operations.controller.js';
import { HealthController } from './health.controller.js';
import { HealthService } from './health.service.js';
import { REDIS_HEALTH, RedisHealth } from './redis-health.js';

class RedisHealthCloser implements OnApplicationShutdown {
  constructor(@Optional() @Inject(REDIS_HEALTH) private readonly redis: RedisHealth | null) {}
  async onApplicationShutdown() {
    await this.redis?.close();
  }
}

@Module({})
export class HealthModule {
  static forRoot(redisUrl: string | undefined, redisTimeoutMs?: number): DynamicModule {
    return {
      module: HealthModule,
      imports: [DiscoveryModule],
      controllers: [HealthController, AdminOperationsController],
      providers: [
        {
          provide: REDIS_HEALTH,
          useFactory: () => (redisUrl ? new RedisHealth(redisUrl, redisTimeoutMs ?? 1000) : null),
        },
        RedisHealthCloser,
        HealthService,
      ],
    };
  }
}
