import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { type AddressInfo } from 'node:net';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface CaughtMail {
  to: string;
  subject: string;
  text: string;
  receivedAt: number;
}

/**
 * A real SMTP server for the browser tests: the stack under test sends its e-mail here (SMTP_URL), and each message
 * lands as a JSON file in a folder the test workers read.
 */
export async function startMailCatcher(dir: string): Promise<{ url: string; stop(): Promise<void> }> {
  mkdirSync(dir, { recursive: true });
  let n = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          const to = Array.isArray(mail.to) ? mail.to[0] : mail.to;
          const caught: CaughtMail = {
            to: to?.value[0]?.address ?? '',
            subject: mail.subject ?? '',
            text: mail.text ?? '',
            receivedAt: Date.now(),
          };
          // Written aside, then renamed: a reader never sees half a message (readAll skips what is not .json).
          const file = path.join(dir, `${String(++n).padStart(5, '0')}.json`);
          writeFileSync(`${file}.part`, JSON.stringify(caught));
          renameSync(`${file}.part`, file);
          callback();
        })
        .catch((err: Error) => callback(err));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.server.address() as AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, stop: () => new Promise((resolve) => server.close(() => resolve())) };
}

function readAll(): CaughtMail[] {
  const dir = process.env.E2E_MAIL_DIR;
  if (!dir) throw new Error('E2E_MAIL_DIR is not set (global setup)');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as CaughtMail);
}

/** The newest message to `to` whose subject matches, received after `since`; waits up to 15 s. */
export async function waitForMail(to: string, subject: RegExp, since = 0): Promise<CaughtMail> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const found = readAll()
      .reverse()
      .find((m) => m.to === to && subject.test(m.subject) && m.receivedAt >= since);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no mail "${subject.source}" to ${to}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Every message to `to` whose subject matches, received after `since`, oldest first (none waited for). */
export function mailsTo(to: string, subject: RegExp, since = 0): CaughtMail[] {
  return readAll().filter((m) => m.to === to && subject.test(m.subject) && m.receivedAt >= since);
}

/** The link in a message (the dashboard URL with ?token=...). */
export function linkIn(mail: CaughtMail): string {
  const match = /https?:\/\/\S+[?&]token=[A-Za-z0-9_-]+/.exec(mail.text);
  if (!match) throw new Error(`no link in "${mail.subject}"`);
  return match[0];
}
