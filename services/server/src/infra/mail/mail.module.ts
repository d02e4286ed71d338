import path from 'node:path';
import {
  Global,
  Inject,
  Injectable,
  Logger,
  Module,
  Optional,
  type DynamicModule,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  type OnModuleDestroy,
} from '@nestjs/common';

const MAIL_OPTIONS = Symbol('MailOptions');
import { DATABASE } from '../db/database.module.js';
import type { Database } from '../db/database.js';
import { MailDispatcher } from './mail-outbox.js';
import { MAILER, type Mailer } from './mail.port.js';
import { MemoryMailer } from './memory.mailer.js';
import { OutboxMailer } from './outbox.mailer.js';
import { DEFAULT_MAIL_FROM, SmtpMailer } from './smtp.mailer.js';

export interface MailModuleOptions {
  /** SMTP_URL: deliver through this SMTP server; the outbox when absent or empty. */
  smtpUrl?: string;
  /** DATA_DIR: the outbox is `<dataDir>/outbox`; `memory://` keeps messages in memory only (tests: MemoryMailer). */
  dataDir: string;
  /** The From header; default `Seatlink <no-reply@seatlink.test>`. */
  from?: string;
  /** Whether this process sends what the outbox holds (the processes that run the subscriptions do). */
  runDispatcher?: boolean;
}

/**
 * The e-mail outbox of this process: reactions queue messages in their transaction (`queueMail`) and wake it; where
 * the dispatcher runs, it sends them.
 */
@Injectable()
export class MailOutbox implements OnApplicationBootstrap, OnModuleDestroy {
  readonly dispatcher: MailDispatcher | null;

  constructor(
    @Inject(MAILER) mailer: Mailer,
    @Inject(MAIL_OPTIONS) options: MailModuleOptions,
    @Optional() @Inject(DATABASE) database: Database | null,
  ) {
    this.dispatcher =
      options.runDispatcher && database ? new MailDispatcher(database, mailer, { logger: new Logger('Mail') }) : null;
  }

  onApplicationBootstrap() {
    this.dispatcher?.start();
  }

  async onModuleDestroy() {
    await this.dispatcher?.stop();
  }

  /** Messages were queued: send them now rather than at the next poll. */
  nudge() {
    this.dispatcher?.nudge();
  }
}

/** Closes the SMTP transport when the application shuts down (after the modules that send mail have stopped). */
@Injectable()
class MailerCloser implements OnApplicationShutdown {
  constructor(@Inject(MAILER) private readonly mailer: Mailer) {}

  onApplicationShutdown() {
    if (this.mailer instanceof SmtpMailer) this.mailer.close();
  }
}

/** Outgoing e-mail (MAILER) for the whole application: SMTP with an SMTP URL, files in the outbox without. */
@Global()
@Module({})
export class MailModule {
  static forRoot(options: MailModuleOptions): DynamicModule {
    return {
      module: MailModule,
      global: true,
      providers: [
        { provide: MAILER, useFactory: () => createMailer(options) },
        { provide: MAIL_OPTIONS, useValue: options },
        MailOutbox,
        MailerCloser,
      ],
      exports: [MAILER, MailOutbox],
    };
  }
}

export function createMailer(options: MailModuleOptions, logger = new Logger('Mail')): Mailer {
  const from = options.from ?? DEFAULT_MAIL_FROM;
  if (options.smtpUrl) {
    logger.log(`e-mail through SMTP at ${describeSmtpUrl(options.smtpUrl)}, from ${from}`);
    return new SmtpMailer({ url: options.smtpUrl, from });
  }
  if (options.dataDir === 'memory://') return new MemoryMailer();
  const dir = path.join(options.dataDir, 'outbox');
  logger.log(`e-mail written to ${dir} and its link logged (no SMTP_URL)`);
  return new OutboxMailer({ dir, from });
}

/** The URL without its user, password or query, which may hold secrets. */
function describeSmtpUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}`;
  } catch {
    return '(an SMTP URL that does not parse)';
  }
}
