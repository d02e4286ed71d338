import { Global, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { createRedis } from '../redis/redis-client.js';
import { RedisBreakers } from '../redis/redis-breakers.js';
import { HttpWalletProvider } from './http-wallet-provider.js';
import { ProviderRateLimiter } from './provider-rate-limiter.js';
import { TokenCipher } from './token-cipher.js';
import { WALLET_PROVIDER } from './wallet-provider.port.js';

const WALLET_REDIS = Symbol('WalletRedis');

class WalletRedisCloser implements OnApplicationShutdown {
  constructor(@Inject(WALLET_REDIS) private readonly redis: Redis | null) {}
  onApplicationShutdown() {
    this.redis?.disconnect();
  }
}

/** The wallet provider (over HTTP), its shared pace, and the cipher of its access tokens. */
@Global()
@Module({
  providers: [
    {
      provide: WALLET_PROVIDER,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => new HttpWalletProvider(config.walletProviderUrl),
    },
    {
      provide: WALLET_REDIS,
      inject: [APP_CONFIG, RedisBreakers],
      useFactory: (config: AppConfig, breakers: RedisBreakers) => {
        if (!config.REDIS_URL) return null;
        // The provider's pace is taken on request paths (linking an account signs in): bounded, behind a breaker,
        // and with a memory limiter as its insurance while Redis is away or hung.
        return createRedis(config.REDIS_URL, 'commands', {
          role: 'wallet provider pace',
          commandTimeoutMs: config.REDIS_COMMAND_TIMEOUT_MS,
          breakers,
        });
      },
    },
    {
      provide: ProviderRateLimiter,
      inject: [APP_CONFIG, WALLET_REDIS],
      useFactory: (config: AppConfig, redis: Redis | null) =>
        new ProviderRateLimiter({
          requestsPerSecond: config.WALLET_PROVIDER_RPS,
          ...(redis ? { redis } : {}),
          prefix: config.REDIS_PREFIX,
        }),
    },
    { provide: TokenCipher, inject: [APP_CONFIG], useFactory: (config: AppConfig) => TokenCipher.fromConfig(config) },
    WalletRedisCloser,
  ],
  exports: [WALLET_PROVIDER, ProviderRateLimiter, TokenCipher],
})
export class WalletModule {}
