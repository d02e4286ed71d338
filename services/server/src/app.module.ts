import { type DynamicModule, Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { APP_CONFIG, type AppConfig } from './infra/config/config.js';
import { DatabaseModule } from './infra/db/database.module.js';
import { ProjectionsModule } from './infra/projections/projections.module.js';
import { RealtimeModule } from './infra/realtime/realtime.module.js';
import { AdminModule } from './modules/admin/admin.module.js';
import { CreditsModule } from './modules/credits/credits.module.js';
import { HealthModule } from './modules/health/health.module.js';
import { IdentityCoreModule, IdentityModule, SessionsModule } from './modules/identity/identity.module.js';
import { PurgeSessionsJob } from './modules/identity/purge-sessions.job.js';
import { JobsModule } from './infra/queue/jobs.module.js';
import { QueueModule } from './infra/queue/queue.module.js';
import { CaptchaModule } from './infra/captcha/captcha.module.js';
import { MailModule } from './infra/mail/mail.module.js';
import { ThrottleModule } from './infra/throttle/throttle.module.js';
import { InvitesCoreModule, InvitesModule } from './modules/invites/invites.module.js';
import { WaitlistModule } from './modules/waitlist/waitlist.module.js';

/**
 * - `all`: HTTP API, socket.io, projector and job processors in one process (`npm start`)
 * - `api`: HTTP API and socket.io only
 * - `worker`: projector and job processors, no HTTP
 * - `cli`: commands and queries only (seed, replay)
 */
export type Role = 'all' | 'api' | 'worker' | 'cli';

@Module({})
export class AppModule {
  static forRoot(config: AppConfig, role: Role): DynamicModule {
    const http = role === 'all' || role === 'api';
    return {
      module: AppModule,
      global: true,
      imports: [
        CqrsModule.forRoot(),
        DatabaseModule.forRoot(config),
        QueueModule.forRoot({ redisUrl: config.REDIS_URL, prefix: config.REDIS_PREFIX }),
        RealtimeModule.forRoot({ http, redisUrl: config.REDIS_URL, redisKey: `${config.REDIS_PREFIX}:socket.io` }),
        ProjectionsModule.forRoot({ runProjector: role === 'all' || role === 'worker' }),
        MailModule.forRoot({ smtpUrl: config.SMTP_URL, dataDir: config.DATA_DIR, from: config.MAIL_FROM }),
        CaptchaModule.forRoot({
          secretKey: config.RECAPTCHA_SECRET_KEY,
          siteKey: config.RECAPTCHA_SITE_KEY,
          verifyUrl: config.RECAPTCHA_VERIFY_URL,
          minScore: config.RECAPTCHA_MIN_SCORE,
        }),
        ThrottleModule,
        ...(http
          ? [IdentityModule, AdminModule, InvitesModule, WaitlistModule, HealthModule.forRoot(config.REDIS_URL)]
          : [IdentityCoreModule, InvitesCoreModule]),
        CreditsModule,
        ...(role === 'all' || role === 'worker'
          ? [JobsModule.forRoot({ imports: [SessionsModule], jobs: [PurgeSessionsJob] })]
          : []),
      ],
      providers: [{ provide: APP_CONFIG, useValue: config }],
      exports: [APP_CONFIG],
    };
  }
}
