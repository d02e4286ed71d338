import { randomBytes } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { QueueName } from '@seatlink/contracts';
import { sql } from 'drizzle-orm';
import { v5 as uuidv5 } from 'uuid';
import { APP_CONFIG, type AppConfig } from '../../infra/config/config.js';
import { DATABASE } from '../../infra/db/database.module.js';
import { type Database, queryRows, type Tx } from '../../infra/db/database.js';
import { queueMail } from '../../infra/mail/mail-outbox.js';
import { MailOutbox } from '../../infra/mail/mail.module.js';
import { type Job, QueueJob } from '../../infra/queue/jobs.module.js';
import { findUserById } from '../identity/index.js';
import { MAIL_TIME_ZONE } from '../../infra/mail/mail-time.js';
import { notificationEmail } from './notifications.emails.js';
import { notificationMailMarks, notificationMailState } from './notifications.schema.js';
import { describeNotifications, type NotificationRow } from './read-models/notifications.queries.js';
import { clock } from '../../shared/clock.js';

/** A notification older than this is not e-mailed any more (the bell still has it). */
const MAIL_WITHIN = '2 days';
/** Marks are kept a little longer than that, then purged. */
const MARKS_KEPT = '3 days';
/** The daily digest goes out from this hour (Europe/London). */
export const DIGEST_HOUR = 8;
/** Notifications one run looks at, at most (the next run takes the rest). */
const BATCH = 2000;
const MAIL_ID_NAMESPACE = 'e1b7a3d5-6c24-4f08-9a1e-3b5d7c9f2e48';

type Mode = 'immediate' | 'daily';

interface Candidate {
  id: string;
  user_id: string;
  kind: string;
  subject_id: string | null;
  ticket_id: string | null;
  count: number;
  data: NotificationRow['data'];
  created_at: Date | string;
  updated_at: Date | string;
  read_at: Date | string | null;
}

/** The day and hour it is in the United Kingdom at `now`. */
export function londonDayAndHour(now: Date): { day: string; hour: number } {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: MAIL_TIME_ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(now);
  const part = (type: string) => parts.find((p) => p.type === type)!.value;
  return { day: `${part('year')}-${part('month')}-${part('day')}`, hour: Number(part('hour')) };
}

/**
 * Every minute: the notification e-mails users chose. A kind set to `immediate` is mailed at the next run (what came
 * within the minute goes in one e-mail); a kind set to `daily` goes in one digest a day, from 08:00 in the United
 * Kingdom. Only unread notifications, only those that came (or grew) after the kind was turned on, within two days.
 * Each e-mail is queued in the outbox in the transaction that marks what it told of (`notification_mail_marks`), with
 * an id from what it tells of (or the user and day, for a digest): a run repeated, or two workers at once, queue it
 * once. The marks are not a read model, so a rebuild of the notifications mails nothing again.
 */
@Injectable()
@QueueJob()
export class SendNotificationEmailsJob implements Job {
  readonly queue = QueueName.Maintenance;
  readonly name = 'send-notification-emails';
  readonly every = { ms: 60 * 1000 };
  private readonly logger = new Logger('NotificationEmails');

  constructor(
    @Inject(DATABASE) private readonly database: Database,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly outbox: MailOutbox,
  ) {}

  async run(): Promise<void> {
    await this.sendDue(clock.now());
  }

  /** Queues the e-mails due at `now`; answers how many. */
  async sendDue(now: Date): Promise<number> {
    let queued = 0;
    queued += await this.send('immediate', now);
    const { day, hour } = londonDayAndHour(now);
    if (hour >= DIGEST_HOUR) queued += await this.send('daily', now, day);
    await this.database.query(`delete from notification_mail_marks where marked_at < now() - interval '${MARKS_KEPT}'`);
    if (queued > 0) this.outbox.nudge();
    return queued;
  }

  private async send(mode: Mode, now: Date, day?: string): Promise<number> {
    const counted = mode === 'immediate' ? 'emailed_count' : 'digested_count';
    const rows = await queryRows<Candidate>(
      this.database.db,
      sql`select n.id, n.user_id, n.kind, n.subject_id, n.ticket_id, n.count, n.data, n.created_at, n.updated_at,
                 n.read_at
            from notifications n
            join notification_preferences p on p.user_id = n.user_id
            left join notification_mail_marks m on m.notification_id = n.id
            left join notification_mail_state s on s.user_id = n.user_id
           where n.read_at is null
             and n.updated_at > ${now.toISOString()}::timestamptz - interval '${sql.raw(MAIL_WITHIN)}'
             and p.email ->> n.kind = ${mode}
             and n.updated_at >= (p.since ->> n.kind)::timestamptz
             and coalesce(m.${sql.raw(counted)}, 0) < n.count
             ${day ? sql`and s.digest_sent_on is distinct from ${day}` : sql``}
           order by n.user_id, n.updated_at desc, n.id
           limit ${BATCH}`,
    );
    const byUser = new Map<string, Candidate[]>();
    for (const row of rows) byUser.set(row.user_id, [...(byUser.get(row.user_id) ?? []), row]);
    let queued = 0;
    for (const [userId, candidates] of byUser) {
      try {
        if (await this.mailUser(userId, candidates, mode, now, day)) queued++;
      } catch (err) {
        // The next run tries again (nothing was marked).
        this.logger.warn(`notification e-mail to user ${userId} not queued: ${String(err)}`);
      }
    }
    return queued;
  }

  private async mailUser(userId: string, candidates: Candidate[], mode: Mode, now: Date, day?: string) {
    const user = await findUserById(this.database.db, userId);
    const rows: NotificationRow[] = candidates.map((c) => ({
      id: c.id,
      userId: c.user_id,
      kind: c.kind,
      subjectId: c.subject_id,
      ticketId: c.ticket_id,
      count: c.count,
      data: c.data,
      createdAt: new Date(c.created_at),
      updatedAt: new Date(c.updated_at),
      readAt: null,
    }));
    const told = rows.map((r) => `${r.id}:${r.count}`).sort();
    return this.database.db.transaction(async (tx) => {
      await this.mark(tx, rows, mode, now);
      if (day) await this.digestDone(tx, userId, day);
      // A user banned or gone gets nothing (what was due is marked all the same).
      if (!user || user.is_banned) return false;
      const token = await this.unsubscribeToken(tx, userId);
      const message = notificationEmail({
        to: user.email,
        firstName: user.first_name,
        dashboardUrl: this.config.DASHBOARD_URL,
        unsubscribeToken: token,
        notifications: await describeNotifications(tx, userId, rows),
        digest: mode === 'daily',
      });
      const id = uuidv5(day ? `digest/${userId}/${day}` : `now/${told.join(',')}`, MAIL_ID_NAMESPACE);
      // Due at once, whatever moment the run was asked to look at.
      await queueMail(tx, id, message);
      return true;
    });
  }

  private async mark(tx: Tx, rows: readonly NotificationRow[], mode: Mode, now: Date) {
    const column = mode === 'immediate' ? notificationMailMarks.emailedCount : notificationMailMarks.digestedCount;
    await tx
      .insert(notificationMailMarks)
      .values(
        rows.map((r) => ({
          notificationId: r.id,
          emailedCount: mode === 'immediate' ? r.count : 0,
          digestedCount: mode === 'daily' ? r.count : 0,
          markedAt: now,
        })),
      )
      .onConflictDoUpdate({
        target: notificationMailMarks.notificationId,
        set: {
          [mode === 'immediate' ? 'emailedCount' : 'digestedCount']: sql`greatest(${column}, excluded.${sql.raw(
            column.name,
          )})`,
          markedAt: now,
        },
      });
  }

  private async digestDone(tx: Tx, userId: string, day: string) {
    await this.unsubscribeToken(tx, userId);
    await tx
      .update(notificationMailState)
      .set({ digestSentOn: day })
      .where(sql`${notificationMailState.userId} = ${userId}`);
  }

  /** The user's unsubscribe token, made the first time it is needed (and kept: every e-mail carries the same). */
  private async unsubscribeToken(tx: Tx, userId: string): Promise<string> {
    await tx
      .insert(notificationMailState)
      .values({ userId, unsubscribeToken: randomBytes(32).toString('base64url') })
      .onConflictDoNothing();
    const [row] = await tx
      .select({ token: notificationMailState.unsubscribeToken })
      .from(notificationMailState)
      .where(sql`${notificationMailState.userId} = ${userId}`);
    return row!.token;
  }
}
