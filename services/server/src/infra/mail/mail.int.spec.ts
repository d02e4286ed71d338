import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Module, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { type AddressObject, simpleParser } from 'mailparser';
import { SMTPServer, type SMTPServerAddress } from 'smtp-server';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMailer, MailModule } from './mail.module.js';
import { MAILER, type MailMessage } from './mail.port.js';
import { MemoryMailer } from './memory.mailer.js';
import { type OutboxEntry, OutboxMailer } from './outbox.mailer.js';
import { SmtpMailer } from './smtp.mailer.js';

const link = 'http://localhost:3000/verify-email?token=Zm9vYmFyYmF6cXV4cXV1eHh5enp5enp5enp5enp5enp5enp5enp5enp5';
const message: MailMessage = {
  to: 'ann.fan@example.test',
  // Not plain ASCII on purpose: the header goes out as an encoded word and must come back the same.
  subject: 'Confirm your e-mail – Seatlink',
  text: `Hello Ann,\n\nOpen this link to confirm your e-mail address:\n${link}\n`,
  html: `<p>Hello Ann,</p><p><a href="${link}">Confirm your e-mail address</a></p>`,
  link,
};

interface Received {
  raw: string;
  mailFrom: string | null;
  rcptTo: string[];
  user: unknown;
}

/** A real SMTP server on 127.0.0.1 that keeps what it receives (plain text, AUTH allowed without TLS). */
class TestSmtpServer {
  readonly received: Received[] = [];
  readonly logins: Array<{ username?: string; password?: string | null }> = [];
  rejectRecipients = false;
  port = 0;
  private readonly server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authOptional: true,
    logger: false,
    onAuth: (auth, _session, callback) => {
      this.logins.push({ username: auth.username, password: auth.password });
      if (auth.username === 'mailer' && auth.password === 'p@ss/word') callback(null, { user: auth.username });
      else callback(new Error('Invalid username or password'));
    },
    onRcptTo: (_address, _session, callback) => {
      if (this.rejectRecipients) callback(Object.assign(new Error('No such user here'), { responseCode: 550 }));
      else callback();
    },
    onData: (stream, session, callback) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        this.received.push({
          raw: Buffer.concat(chunks).toString('utf8'),
          mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : null,
          rcptTo: session.envelope.rcptTo.map((a: SMTPServerAddress) => a.address),
          user: session.user,
        });
        callback();
      });
    },
  });

  async start(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.server.server.once('error', reject);
      this.server.listen(0, '127.0.0.1', () => resolve());
    });
    this.port = (this.server.server.address() as AddressInfo).port;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

describe('SmtpMailer against a real SMTP server', () => {
  const smtp = new TestSmtpServer();
  const mailers: SmtpMailer[] = [];
  const mailer = (url: string, from?: string) => {
    const m = new SmtpMailer({ url, from });
    mailers.push(m);
    return m;
  };

  beforeAll(() => smtp.start());
  afterAll(() => smtp.stop());
  beforeEach(() => {
    smtp.received.length = 0;
    smtp.logins.length = 0;
    smtp.rejectRecipients = false;
  });
  afterEach(() => {
    for (const m of mailers.splice(0)) m.close();
  });

  it('delivers the message: envelope, From, To, Subject, and the link in the text and the HTML part', async () => {
    await mailer(`smtp://127.0.0.1:${smtp.port}`).send(message);

    expect(smtp.received).toHaveLength(1);
    const [got] = smtp.received;
    expect(got?.mailFrom).toBe('no-reply@seatlink.test');
    expect(got?.rcptTo).toEqual(['ann.fan@example.test']);
    const mail = await parseMail(got?.raw ?? '');
    expect(mail.headers.get('from')).toBe('Seatlink <no-reply@seatlink.test>');
    expect(mail.headers.get('to')).toBe('ann.fan@example.test');
    expect(mail.headers.get('subject')).toBe('Confirm your e-mail – Seatlink');
    expect(mail.headers.get('message-id')).toMatch(/^<.+@seatlink\.test>$/);
    expect(mail.parts.map((p) => p.contentType)).toEqual(['text/plain', 'text/html']);
    expect(mail.parts[0]?.body).toContain(link);
    expect(mail.parts[1]?.body).toContain(`href="${link}"`);
  });

  it('logs in with the user and the percent-decoded password of the URL, and sends from the configured address', async () => {
    await mailer(`smtp://mailer:p%40ss%2Fword@127.0.0.1:${smtp.port}`, 'Box Office <tickets@club.test>').send(message);

    expect(smtp.logins).toEqual([{ username: 'mailer', password: 'p@ss/word' }]);
    expect(smtp.received[0]?.user).toBe('mailer');
    expect(smtp.received[0]?.mailFrom).toBe('tickets@club.test');
    expect((await parseMail(smtp.received[0]?.raw ?? '')).headers.get('from')).toBe('Box Office <tickets@club.test>');
  });

  it('rejects when the server refuses the login', async () => {
    await expect(mailer(`smtp://mailer:wrong@127.0.0.1:${smtp.port}`).send(message)).rejects.toThrow(
      /Invalid username or password/,
    );
    expect(smtp.received).toHaveLength(0);
  });

  it('rejects when the server refuses the recipient', async () => {
    smtp.rejectRecipients = true;
    await expect(mailer(`smtp://127.0.0.1:${smtp.port}`).send(message)).rejects.toThrow(/No such user here/);
    expect(smtp.received).toHaveLength(0);
  });

  it('rejects when nothing listens at the address', async () => {
    const port = await closedPort();
    await expect(mailer(`smtp://127.0.0.1:${port}`).send(message)).rejects.toThrow(/ECONNREFUSED/);
  });
});

describe('OutboxMailer', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'seatlink-outbox-'));
  });
  afterEach(() => rm(dataDir, { recursive: true, force: true }));

  it('writes the message as an .eml and a .json sidecar, both with the link, and logs the recipient and the link', async () => {
    const log = vi.fn();
    const sentAt = new Date('2026-03-01T09:30:15.123Z');
    const outbox = new OutboxMailer({ dir: path.join(dataDir, 'outbox'), now: () => sentAt, logger: { log } });

    await outbox.send(message);

    const files = (await readdir(path.join(dataDir, 'outbox'))).sort();
    expect(files).toHaveLength(2);
    expect(files[0]).toMatch(/^2026-03-01T09-30-15-123Z-[0-9a-f]{8}\.eml$/);
    expect(files[1]).toBe(files[0]?.replace(/\.eml$/, '.json'));

    const entry = JSON.parse(await readFile(path.join(dataDir, 'outbox', files[1] ?? ''), 'utf8')) as OutboxEntry;
    expect(entry).toEqual({
      to: 'ann.fan@example.test',
      subject: 'Confirm your e-mail – Seatlink',
      link,
      sentAt: '2026-03-01T09:30:15.123Z',
    });

    const eml = await readFile(path.join(dataDir, 'outbox', files[0] ?? ''), 'utf8');
    expect(eml).toContain('\r\n'); // RFC 822 line ends
    const mail = await parseMail(eml);
    expect(mail.headers.get('from')).toBe('Seatlink <no-reply@seatlink.test>');
    expect(mail.headers.get('to')).toBe('ann.fan@example.test');
    expect(mail.headers.get('subject')).toBe('Confirm your e-mail – Seatlink');
    expect(mail.headers.get('date')).toBe('Sun, 01 Mar 2026 09:30:15 +0000');
    expect(mail.parts[0]?.body).toContain(link);
    expect(mail.parts[1]?.body).toContain(`href="${link}"`);

    expect(log).toHaveBeenCalledTimes(1);
    const line = String(log.mock.calls[0]?.[0]);
    expect(line).toContain('ann.fan@example.test');
    expect(line).toContain(link);
    expect(line).not.toContain('\n');
  });

  it('makes the directory, keeps every message, and writes link null when a message has none', async () => {
    const dir = path.join(dataDir, 'nested', 'outbox');
    let t = Date.parse('2026-03-01T10:00:00Z');
    const outbox = new OutboxMailer({ dir, now: () => new Date((t += 1000)), logger: { log: () => {} } });

    await outbox.send({ ...message, link: undefined, subject: 'First' });
    await outbox.send({ ...message, to: 'bob@example.test', subject: 'Second' });

    const files = (await readdir(dir)).sort();
    expect(files.filter((f) => f.endsWith('.eml'))).toHaveLength(2);
    const entries = await Promise.all(
      files
        .filter((f) => f.endsWith('.json'))
        .map(async (f) => JSON.parse(await readFile(path.join(dir, f), 'utf8')) as OutboxEntry),
    );
    expect(entries.map((e) => [e.to, e.subject, e.link])).toEqual([
      ['ann.fan@example.test', 'First', null],
      ['bob@example.test', 'Second', link],
    ]);
    expect(files.some((f) => f.endsWith('.partial'))).toBe(false);
  });
});

describe('MailModule', () => {
  it('chooses SMTP with an SMTP URL, the in-memory outbox for memory://, and the outbox directory otherwise', () => {
    const logger = { log: vi.fn() } as never;
    const smtp = createMailer({ smtpUrl: 'smtps://user:secret@mail.example.test:465', dataDir: '/data' }, logger);
    expect(smtp).toBeInstanceOf(SmtpMailer);
    (smtp as SmtpMailer).close();
    expect(createMailer({ dataDir: 'memory://' }, logger)).toBeInstanceOf(MemoryMailer);
    const outbox = createMailer({ smtpUrl: '', dataDir: '/srv/seatlink' }, logger);
    expect(outbox).toBeInstanceOf(OutboxMailer);
    expect((outbox as OutboxMailer).dir).toBe(path.join('/srv/seatlink', 'outbox'));
    // The URL's password never reaches the log.
    expect(JSON.stringify((logger as { log: ReturnType<typeof vi.fn> }).log.mock.calls)).not.toContain('secret');
  });

  it('provides MAILER to the whole application, and closes the SMTP transport on shutdown', async () => {
    @Module({ imports: [MailModule.forRoot({ smtpUrl: 'smtp://127.0.0.1:2525', dataDir: 'memory://' })] })
    class SmtpApp {}
    const app: INestApplicationContext = await NestFactory.createApplicationContext(SmtpApp, { logger: false });
    const mailer = app.get<SmtpMailer>(MAILER);
    expect(mailer).toBeInstanceOf(SmtpMailer);
    const close = vi.spyOn(mailer, 'close');
    await app.close();
    expect(close).toHaveBeenCalledTimes(1);

    @Module({ imports: [MailModule.forRoot({ dataDir: 'memory://' })] })
    class MemoryApp {}
    const memoryApp = await NestFactory.createApplicationContext(MemoryApp, { logger: false });
    const memory = memoryApp.get<MemoryMailer>(MAILER);
    await memory.send(message);
    expect(memory.messages).toEqual([message]);
    expect(memory.lastTo('ANN.FAN@example.test')?.link).toBe(link);
    await memoryApp.close();
  });
});

/** A port nothing listens on: one the system just gave out and took back. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

interface ParsedMail {
  /** From, To, Subject, Message-ID and Date as one line each, as a reader of the message sees them. */
  headers: Map<string, string>;
  /** The text and HTML bodies, decoded. */
  parts: Array<{ contentType: string; body: string }>;
}

/** Reads a raw RFC 822 message with mailparser. */
async function parseMail(raw: string): Promise<ParsedMail> {
  const mail = await simpleParser(raw);
  const address = (a: AddressObject | AddressObject[] | undefined) => (Array.isArray(a) ? a[0] : a)?.value[0];
  const from = address(mail.from);
  const line = (key: string) => mail.headerLines.find((h) => h.key === key)?.line.replace(/^[^:]+:\s*/, '') ?? '';
  const headers = new Map<string, string>([
    ['from', from?.name ? `${from.name} <${from.address}>` : (from?.address ?? '')],
    ['to', address(mail.to)?.address ?? ''],
    ['subject', mail.subject ?? ''],
    ['message-id', mail.messageId ?? ''],
    ['date', line('date')],
  ]);
  const parts = [
    ...(mail.text !== undefined ? [{ contentType: 'text/plain', body: mail.text }] : []),
    ...(typeof mail.html === 'string' ? [{ contentType: 'text/html', body: mail.html }] : []),
  ];
  return { headers, parts };
}
