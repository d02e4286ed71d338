import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../infra/config/config.js';
import { DATABASE } from '../../infra/db/database.module.js';
import type { Database } from '../../infra/db/database.js';
import { MAILER, type MailMessage, type Mailer } from '../../infra/mail/mail.port.js';
import { AuthTokensService } from './auth-tokens.service.js';
import { passwordResetEmail, verificationEmail } from './identity.emails.js';
import { findUserById } from './read-models/users/users.queries.js';

/** Issues a fresh single-use token and e-mails its link (verification, password reset) to the user. */
@Injectable()
export class IdentityMailService {
  private readonly logger = new Logger('IdentityMail');

  constructor(
    private readonly tokens: AuthTokensService,
    @Inject(MAILER) private readonly mailer: Mailer,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(DATABASE) private readonly database: Database,
  ) {}

  async sendVerification(userId: string): Promise<boolean> {
    const user = await findUserById(this.database.db, userId);
    if (!user) return false;
    const token = await this.tokens.issue(userId, 'verify_email');
    return this.deliver(verificationEmail(user.email, user.first_name, this.config.DASHBOARD_URL, token));
  }

  async sendPasswordReset(userId: string): Promise<boolean> {
    const user = await findUserById(this.database.db, userId);
    if (!user) return false;
    const token = await this.tokens.issue(userId, 'reset_password');
    return this.deliver(passwordResetEmail(user.email, user.first_name, this.config.DASHBOARD_URL, token));
  }

  /** A mail server that is down is logged and answered false; visitor calls still answer the same way. */
  private async deliver(message: MailMessage): Promise<boolean> {
    try {
      await this.mailer.send(message);
      return true;
    } catch (err) {
      this.logger.error(`could not send "${message.subject}" to ${message.to}: ${String(err)}`);
      return false;
    }
  }
}
