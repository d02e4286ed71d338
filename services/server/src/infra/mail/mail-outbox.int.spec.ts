import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../testing/test-database.js';
import { MailDispatcher, queueMail } from './mail-outbox.js';
import type { MailMessage, Mailer } from './mail.port.js';

/** A mailer that records what it sends, and fails the first `failures` sends. */
class RecordingMailer implements Mailer {
  readonly sent: MailMessage[] = [];
  constructor(private failures = 0) {}
  async send(message: MailMessage) {
    if (this.failures > 0) {
      this.failures--;
      throw new Error('421 try again later');
    }
    await new Promise((r) => setTimeout(r, 2));
    this.sent.push(message);
  }
}

const message = (to: string): MailMessage => ({
  to,
  subject: 'Verify your email address',
  text: 'link: http://localhost/verify-email?token=SECRET',
  html: '<a href="http://localhost/verify-email?token=SECRET">verify</a>',
  link: 'http://localhost/verify-email?token=SECRET',
});

describe('the e-mail outbox', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(async () => t?.dispose());

  const queue = async (to: string, id = randomUUID()) => {
    await t.database.db.transaction((tx) => queueMail(tx, id, message(to)));
    return id;
  };
  const row = async (id: string) =>
    (
      await t.database.query<{ status: string; attempts: number; text: string | null; link: string | null }>(
        'select status, attempts, text, link from mail_outbox where id = $1',
        [id],
      )
    )[0];

  it('queues a message once per id, sends it, and erases its link once sent', async () => {
    const id = randomUUID();
    await queue('once@example.com', id);
    await queue('once@example.com', id);
    const mailer = new RecordingMailer();
    const dispatcher = new MailDispatcher(t.database, mailer);
    await dispatcher.dispatchDue();
    expect(mailer.sent.filter((m) => m.to === 'once@example.com')).toHaveLength(1);
    expect(mailer.sent[0]!.messageId).toBe(`<${id}@seatlink>`);
    expect(await row(id)).toEqual({ status: 'sent', attempts: 1, text: null, link: null });
  });

  it('tries again with backoff when the mail server refuses, then sends', async () => {
    const id = await queue('retry@example.com');
    const mailer = new RecordingMailer(2);
    const dispatcher = new MailDispatcher(t.database, mailer, { retryMs: 20, pollMs: 10 });
    dispatcher.start();
    try {
      await expect.poll(async () => (await row(id))?.status, { timeout: 10_000 }).toBe('sent');
    } finally {
      await dispatcher.stop();
    }
    expect((await row(id))?.attempts).toBe(3);
    expect(mailer.sent.filter((m) => m.to === 'retry@example.com')).toHaveLength(1);
  });

  it('gives a message up after its last try, keeping the error', async () => {
    const id = await queue('never@example.com');
    const mailer = new RecordingMailer(100);
    const dispatcher = new MailDispatcher(t.database, mailer, { retryMs: 1, pollMs: 10, maxAttempts: 3 });
    dispatcher.start();
    try {
      await expect.poll(async () => (await row(id))?.status, { timeout: 10_000 }).toBe('failed');
    } finally {
      await dispatcher.stop();
    }
    // Given up: who and why are kept, not the text with its link (a token).
    expect(await row(id)).toMatchObject({ attempts: 3, text: null, link: null });
  });

  it('sends each of 40 messages exactly once with three dispatchers racing', async () => {
    const ids = await Promise.all(Array.from({ length: 40 }, (_, i) => queue(`race${i}@example.com`)));
    const mailers = [new RecordingMailer(), new RecordingMailer(), new RecordingMailer()];
    const dispatchers = mailers.map((m) => new MailDispatcher(t.database, m, { pollMs: 5 }));
    for (const d of dispatchers) d.start();
    try {
      await expect
        .poll(async () => (await Promise.all(ids.map(row))).every((r) => r?.status === 'sent'), { timeout: 15_000 })
        .toBe(true);
    } finally {
      await Promise.all(dispatchers.map((d) => d.stop()));
    }
    const sent = mailers.flatMap((m) => m.sent).filter((m) => m.to.startsWith('race'));
    expect(sent).toHaveLength(40);
    expect(new Set(sent.map((m) => m.to)).size).toBe(40);
  });
});
