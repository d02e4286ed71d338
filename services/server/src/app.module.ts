import { type DynamicModule, Module } from '@nestjs/common';
import { useRedisCluster } from './infra/redis/redis-client.js';
import { DiscoveryModule } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import { CaptchaModule } from './infra/captcha/captcha.module.js';
import type { AppConfig } from './infra/config/config.js';
import { ConfigModule } from './infra/config/config.module.js';
import { MODULE_ROUTINES } from './routines.js';
import { DatabaseModule } from './infra/db/database.module.js';
import { EventLogModule } from './infra/event-store/event-log.module.js';
import { HttpModule } from './infra/http/http.module.js';
import { MailModule } from './infra/mail/mail.module.js';
import { JobsModule } from './infra/queue/jobs.module.js';
import { QueueModule } from './infra/queue/queue.module.js';
import { RedisModule } from './infra/redis/redis-breakers.js';
import { RealtimeModule } from './infra/realtime/realtime.module.js';
import { SubscriptionsModule } from './infra/subscriptions/subscriptions.module.js';
import { ThrottleModule } from './infra/throttle/throttle.module.js';
import { AdminModule } from './modules/admin/index.js';
import { AuditModule } from './modules/audit/index.js';
import { CreditsModule } from './modules/credits/index.js';
import { DistributionModule } from './modules/distribution/index.js';
import { HealthModule } from './modules/health/index.js';
import { IdentityModule } from './modules/identity/index.js';
import { InvitesModule } from './modules/invites/index.js';
import { ApiKeysModule } from './modules/api-keys/index.js';
import { WebhooksModule } from './modules/webhooks/index.js';
import { NotificationsModule } from './modules/notifications/index.js';
import { PaymentsModule } from './modules/payments/index.js';
import { WaitlistModule } from './modules/waitlist/index.js';
import { WalletAccountsModule } from './modules/wallet-accounts/index.js';
import { WalletModule } from './infra/wallet/wallet.module.js';
import { PaymentsInfraModule } from './infra/payments/payments.module.js';
import { MetricsModule } from './infra/metrics/metrics.module.js';

/**
 * The features. A module declares what it adds — routes, command handlers, read models and reactions
 * (subscriptions), jobs — and every process imports every module: each role runs the part that is its own.
 */
const features = (config: AppConfig) => [
  IdentityModule,
  CreditsModule,
  InvitesModule,
  WaitlistModule,
  WalletAccountsModule,
  DistributionModule,
  NotificationsModule,
  ApiKeysModule,
  WebhooksModule,
  PaymentsModule,
  AdminModule,
  AuditModule,
  HealthModule.forRoot(config.REDIS_URL, config.REDIS_COMMAND_TIMEOUT_MS),
];

/**
 * - `all`: HTTP API, socket.io, subscriptions, mail and job processors in one process (`npm start`)
 * - `api`: HTTP API and socket.io only
 * - `worker`: subscriptions (read models, reactions), mail and job processors, no HTTP
 * - `cli`: commands and queries only (seed, replay, projections)
 */
export type Role = 'all' | 'api' | 'worker' | 'cli';

@Module({})
export class AppModule {
  static forRoot(config: AppConfig, role: Role): DynamicModule {
    if (config.REDIS_CLUSTER && config.REDIS_URL) useRedisCluster(config.REDIS_URL);
    const http = role === 'all' || role === 'api';
    const background = role === 'all' || role === 'worker';
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        CqrsModule.forRoot(),
        DiscoveryModule,
        DatabaseModule.forRoot(config, MODULE_ROUTINES),
        EventLogModule,
        RedisModule,
        QueueModule.forRoot({
          redisUrl: config.REDIS_URL,
          // On a cluster every key of a queue must be in one slot: the prefix is a hash tag.
          prefix: config.REDIS_CLUSTER ? `{${config.REDIS_PREFIX}}` : config.REDIS_PREFIX,
          commandTimeoutMs: config.REDIS_COMMAND_TIMEOUT_MS,
        }),
        RealtimeModule.forRoot({
          http,
          redisUrl: config.REDIS_URL,
          redisKey: `${config.REDIS_PREFIX}:socket.io`,
          commandTimeoutMs: config.REDIS_COMMAND_TIMEOUT_MS,
        }),
        SubscriptionsModule.forRoot({ runHost: background }),
        MailModule.forRoot({
          smtpUrl: config.SMTP_URL,
          dataDir: config.DATA_DIR,
          from: config.MAIL_FROM,
          runDispatcher: background,
        }),
        CaptchaModule.forRoot({
          secretKey: config.RECAPTCHA_SECRET_KEY,
          siteKey: config.RECAPTCHA_SITE_KEY,
          verifyUrl: config.RECAPTCHA_VERIFY_URL,
          minScore: config.RECAPTCHA_MIN_SCORE,
        }),
        ThrottleModule,
        WalletModule,
        PaymentsInfraModule.forRoot(),
        MetricsModule.forRoot({ role, port: config.METRICS_PORT, host: config.METRICS_HOST }),
        JobsModule.forRoot({ run: background }),
        HttpModule,
        ...features(config),
      ],
    };
  }
}
