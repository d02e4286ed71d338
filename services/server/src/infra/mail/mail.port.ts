/** Outgoing e-mail. Adapters: SMTP through nodemailer (SMTP_URL), or files in DATA_DIR/outbox (embedded default). */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The one link the message is about (verification, reset); the outbox adapter prints it to the log. */
  link?: string;
  /**
   * The Message-ID, derived from what asked for the message: a message sent again after a crash carries the same id,
   * so mail clients show it once.
   */
  messageId?: string;
  /**
   * Headers beyond the usual ones, e.g. `List-Unsubscribe` and `List-Unsubscribe-Post` (RFC 8058) on a notification
   * e-mail.
   */
  headers?: Record<string, string>;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

export const MAILER = Symbol('Mailer');
