import { randomUUID } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Logger } from '@nestjs/common';
import nodemailer, { type StreamSentMessageInfo, type Transporter } from 'nodemailer';
import type { MailMessage, Mailer } from './mail.port.js';
import { DEFAULT_MAIL_FROM } from './smtp.mailer.js';

/** The `.json` written beside each `.eml`: what a developer or a test needs without parsing MIME. */
export interface OutboxEntry {
  to: string;
  subject: string;
  link: string | null;
  /** ISO 8601. */
  sentAt: string;
}

export interface OutboxMailerOptions {
  /** The outbox directory itself (the module passes `<DATA_DIR>/outbox`); made on the first message. */
  dir: string;
  /** The From header; default `Seatlink <no-reply@seatlink.test>`. */
  from?: string;
  now?: () => Date;
  logger?: Pick<Logger, 'log'>;
}

/**
 * The embedded default (no SMTP_URL): every message becomes `<outbox>/<time>-<id>.eml`, the real RFC 822 text that
 * nodemailer would have sent (any mail client opens it), and `<time>-<id>.json` ({to, subject, link, sentAt}), and the
 * log says who it is for and its link, so a developer can follow it. Names sort by time. Each file is written under a
 * temporary name and renamed, and the `.json` comes last: whoever sees a `.json` can read both files whole.
 */
export class OutboxMailer implements Mailer {
  /** nodemailer's stream transport builds the message exactly as the SMTP transport would, and delivers nothing. */
  private readonly composer: Transporter<StreamSentMessageInfo>;
  private readonly now: () => Date;
  private readonly logger: Pick<Logger, 'log'>;
  private ready: Promise<unknown> | null = null;

  constructor(private readonly options: OutboxMailerOptions) {
    this.composer = nodemailer.createTransport(
      { streamTransport: true, buffer: true, newline: 'windows' },
      { from: options.from ?? DEFAULT_MAIL_FROM },
    );
    this.now = options.now ?? (() => new Date());
    this.logger = options.logger ?? new Logger('Mail');
  }

  get dir(): string {
    return this.options.dir;
  }

  async send(message: MailMessage): Promise<void> {
    const sentAt = this.now();
    const info = await this.composer.sendMail({
      to: message.to,
      subject: message.subject,
      text: message.text,
      html: message.html,
      date: sentAt,
      ...(message.messageId ? { messageId: message.messageId } : {}),
      ...(message.headers ? { headers: message.headers } : {}),
    });
    const raw = info.message;
    if (!Buffer.isBuffer(raw)) throw new Error('The stream transport did not hand back the message as a buffer');

    this.ready ??= mkdir(this.options.dir, { recursive: true });
    await this.ready.catch((err: unknown) => {
      this.ready = null; // try again with the next message (the directory may be made meanwhile)
      throw err;
    });
    const base = path.join(
      this.options.dir,
      `${sentAt.toISOString().replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}`,
    );
    const entry: OutboxEntry = {
      to: message.to,
      subject: message.subject,
      link: message.link ?? null,
      sentAt: sentAt.toISOString(),
    };
    await writeWhole(`${base}.eml`, raw);
    await writeWhole(`${base}.json`, `${JSON.stringify(entry, null, 2)}\n`);

    const link = message.link ? ` ${message.link}` : '';
    this.logger.log(`mail to ${message.to}: "${message.subject}"${link} (${base}.eml)`);
  }
}

async function writeWhole(file: string, content: string | Buffer): Promise<void> {
  const partial = `${file}.partial`;
  await writeFile(partial, content);
  await rename(partial, file);
}
