import { sql } from 'drizzle-orm';
import { safeErrorMessage } from '../db/db-errors.js';
import type { Database, Tx } from '../db/database.js';
import { Backoff } from '../../shared/backoff.js';
import { Signal } from '../../shared/signal.js';
import type { MailMessage, Mailer } from './mail.port.js';

export interface MailDispatcherOptions {
  /** Fallback poll for due messages when no wake-up arrives. */
  pollMs?: number;
  /** Sends tried per message before it is marked failed. */
  maxAttempts?: number;
  /** How long a claimed message stays claimed (a dispatcher that died meanwhile gives it up). */
  leaseMs?: number;
  /** Wait after the first failed send; doubles each time, at most an hour. */
  retryMs?: number;
  logger?: { warn(message: string): void; error(message: string): void };
}

/**
 * Queues a message in the transaction of the reaction that decided to send it, due at once (by the database's own
 * `now()`, which the dispatcher's next look is never before). Its id comes from the event, so the same event never
 * queues a second message.
 */
export async function queueMail(tx: Tx, id: string, message: MailMessage, now = new Date()): Promise<void> {
  await tx.execute(sql`
    insert into mail_outbox (id, "to", subject, text, html, link, headers, created_at, next_attempt_at)
    values (${id}, ${message.to}, ${message.subject}, ${message.text}, ${message.html}, ${message.link ?? null},
            ${message.headers ? JSON.stringify(message.headers) : null}::jsonb, ${now.toISOString()}, now())
    on conflict (id) do nothing`);
}

interface OutboxRow {
  id: string;
  to: string;
  subject: string;
  text: string | null;
  html: string | null;
  link: string | null;
  headers: Record<string, string> | null;
  attempts: number;
}

/**
 * Sends what the outbox holds. Each process that runs it claims due messages with `for update skip locked` under a
 * lease, so two processes never send the same message at once; a failed send is tried again with backoff. A message is
 * erased once sent (its links carry tokens), keeping who, what and when. At least once: a crash between the SMTP
 * server's answer and the mark sends that message once more, with the same Message-ID.
 */
export class MailDispatcher {
  private stopped = true;
  private loop: Promise<void> | null = null;
  private readonly signal = new Signal();
  private readonly pollMs: number;
  private readonly maxAttempts: number;
  private readonly leaseMs: number;
  private readonly retryMs: number;

  constructor(
    private readonly database: Database,
    private readonly mailer: Mailer,
    private readonly options: MailDispatcherOptions = {},
  ) {
    this.pollMs = options.pollMs ?? 2000;
    this.maxAttempts = options.maxAttempts ?? 8;
    this.leaseMs = options.leaseMs ?? 60_000;
    this.retryMs = options.retryMs ?? 5000;
  }

  start() {
    if (this.loop) return;
    this.stopped = false;
    this.loop = this.run();
  }

  async stop() {
    this.stopped = true;
    this.nudge();
    await this.loop;
    this.loop = null;
  }

  /** New messages may be due: look now. */
  nudge() {
    this.signal.notify();
  }

  private async run() {
    const failures = new Backoff({ initialMs: 200, maxMs: 10_000 });
    while (!this.stopped) {
      let sent: number;
      try {
        sent = await this.dispatchDue();
        failures.reset();
      } catch (err) {
        this.options.logger?.warn(`mail outbox: ${safeErrorMessage(err)}`);
        await this.signal.wait(failures.next());
        continue;
      }
      if (sent === 0) await this.signal.wait(this.pollMs);
    }
  }

  /** Claims and sends the messages that are due; answers how many it handled. */
  async dispatchDue(limit = 20): Promise<number> {
    const rows = await this.database.query<OutboxRow>(
      `update mail_outbox set attempts = attempts + 1, locked_until = now() + ($2 || ' milliseconds')::interval
       where id in (
         select id from mail_outbox
         where status = 'pending' and next_attempt_at <= now() and (locked_until is null or locked_until < now())
         order by created_at limit $1
         for update skip locked)
       returning id, "to", subject, text, html, link, headers, attempts`,
      [limit, String(this.leaseMs)],
    );
    for (const row of rows) await this.send(row);
    return rows.length;
  }

  private async send(row: OutboxRow) {
    try {
      await this.mailer.send({
        to: row.to,
        subject: row.subject,
        text: row.text ?? '',
        html: row.html ?? '',
        ...(row.link ? { link: row.link } : {}),
        ...(row.headers ? { headers: row.headers } : {}),
        messageId: `<${row.id}@seatlink>`,
      });
    } catch (err) {
      const message = safeErrorMessage(err).slice(0, 1000);
      const failed = row.attempts >= this.maxAttempts;
      const delayMs = Math.min(3_600_000, this.retryMs * 2 ** (row.attempts - 1));
      // A message given up keeps who, what and why, not its text (its link carries a token).
      await this.database.query(
        `update mail_outbox set last_error = $2, locked_until = null,
           status = case when $3 then 'failed' else 'pending' end,
           next_attempt_at = now() + ($4 || ' milliseconds')::interval,
           text = case when $3 then null else text end,
           html = case when $3 then null else html end,
           link = case when $3 then null else link end,
           headers = case when $3 then null else headers end
         where id = $1`,
        [row.id, message, failed, String(delayMs)],
      );
      this.options.logger?.[failed ? 'error' : 'warn'](
        `could not send "${row.subject}" (try ${row.attempts}${failed ? ', giving up' : ''}): ${message}`,
      );
      return;
    }
    await this.database.query(
      `update mail_outbox set status = 'sent', sent_at = now(), locked_until = null, text = null, html = null,
         link = null, headers = null, last_error = null
       where id = $1`,
      [row.id],
    );
  }
}
