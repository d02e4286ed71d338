import { type DynamicModule, Global, Logger, Module, type OnApplicationShutdown, Inject } from '@nestjs/common';
import { RealtimeGateway } from './realtime.gateway.js';
import { REALTIME_PUBLISHER, type RealtimePublisher } from './realtime.publisher.js';
import { RedisEmitterPublisher } from './redis-emitter.publisher.js';
import { ReadReplicas } from '../db/read-replicas.js';
import { FloorRaisingPublisher } from './floor-raising.publisher.js';

/** The worker's Redis emitter, before FloorRaisingPublisher wraps it. */
const EMITTER = Symbol('RealtimeEmitter');

class EmitterCloser implements OnApplicationShutdown {
  constructor(@Inject(EMITTER) private readonly publisher: RealtimePublisher) {}
  async onApplicationShutdown() {
    if (this.publisher instanceof RedisEmitterPublisher) await this.publisher.close();
  }
}

/**
 * With HTTP, the socket.io gateway publishes (through the Redis adapter when configured).
 * Without HTTP (a worker), a Redis emitter publishes to the API processes' sockets.
 */
@Global()
@Module({})
export class RealtimeModule {
  static forRoot(options: {
    http: boolean;
    redisUrl?: string;
    redisKey: string;
    commandTimeoutMs?: number;
  }): DynamicModule {
    if (options.http) {
      return {
        module: RealtimeModule,
        providers: [
          RealtimeGateway,
          {
            provide: REALTIME_PUBLISHER,
            inject: [RealtimeGateway, ReadReplicas],
            useFactory: (gateway: RealtimeGateway, replicas: ReadReplicas) =>
              new FloorRaisingPublisher(gateway, replicas),
          },
        ],
        exports: [REALTIME_PUBLISHER, RealtimeGateway],
      };
    }
    return {
      module: RealtimeModule,
      providers: [
        {
          provide: REALTIME_PUBLISHER,
          inject: [EMITTER, ReadReplicas],
          useFactory: (emitter: RealtimePublisher, replicas: ReadReplicas) =>
            new FloorRaisingPublisher(emitter, replicas),
        },
        {
          provide: EMITTER,
          useFactory: (): RealtimePublisher => {
            if (options.redisUrl) {
              return new RedisEmitterPublisher(options.redisUrl, options.redisKey, options.commandTimeoutMs);
            }
            new Logger('Realtime').warn('No REDIS_URL: a separate worker cannot push live updates to browsers');
            return { publish: () => undefined, disconnectUser: () => undefined, disconnectSession: () => undefined };
          },
        },
        EmitterCloser,
      ],
      exports: [REALTIME_PUBLISHER],
    };
  }
}
