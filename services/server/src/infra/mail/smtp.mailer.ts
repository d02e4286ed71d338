import { Logger } from '@nestjs/common';
import nodemailer, { type Transporter } from 'nodemailer';
import type { MailMessage, Mailer } from './mail.port.js';

export const DEFAULT_MAIL_FROM = 'Seatlink <no-reply@seatlink.test>';

export interface SmtpMailerOptions {
  /**
   * Where to deliver: `smtp://host:port` (plain, STARTTLS when the server offers it) or `smtps://user:pass@host:465`
   * (TLS from the first byte). User and password are percent-decoded; nodemailer's query options apply, e.g.
   * `?pool=true` or `?tls.rejectUnauthorized=false`.
   */
  url: string;
  /** The From header; default `Seatlink <no-reply@seatlink.test>`. */
  from?: string;
  logger?: Pick<Logger, 'debug'>;
}

/**
 * Timeouts for the request that sends the mail (a sign-up waits for it): nodemailer's defaults (two minutes to connect,
 * ten minutes of silence) would hold it far too long. The URL's query can still set each of them.
 */
const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

/** E-mail through an SMTP server (Mailpit in compose, the provider's relay in production). */
export class SmtpMailer implements Mailer {
  private readonly transport: Transporter;
  private readonly logger: Pick<Logger, 'debug'>;

  constructor(options: SmtpMailerOptions) {
    // In the object form the URL's settings win over the other keys, so the timeouts are only defaults.
    this.transport = nodemailer.createTransport(
      { url: options.url, ...TIMEOUTS },
      { from: options.from ?? DEFAULT_MAIL_FROM },
    );
    this.logger = options.logger ?? new Logger('Mail');
  }

  /** Rejects when the server refuses the message or cannot be reached; the caller decides what that means. */
  async send(message: MailMessage): Promise<void> {
    const info = await this.transport.sendMail({
      to: message.to,
      subject: message.subject,
      text: message.text,
      html: message.html,
      ...(message.messageId ? { messageId: message.messageId } : {}),
      ...(message.headers ? { headers: message.headers } : {}),
    });
    this.logger.debug(`sent to ${message.to}: "${message.subject}" (${info.messageId})`);
  }

  /** Ends the transport's connections (the pooled transport keeps them open between messages). */
  close(): void {
    this.transport.close();
  }
}
