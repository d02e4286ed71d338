import { type AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface CapturedMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Each header as sent (lower-case name → its value, unfolded). */
  headers: Map<string, string>;
}

/** A real SMTP server on a free port that keeps every message it receives, for tests that follow e-mailed links. */
export class TestSmtpServer {
  readonly messages: CapturedMail[] = [];
  private readonly server: SMTPServer;

  constructor() {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData: (stream, _session, callback) => {
        simpleParser(stream)
          .then((mail) => {
            const to = Array.isArray(mail.to) ? mail.to[0] : mail.to;
            this.messages.push({
              to: to?.value[0]?.address ?? '',
              subject: mail.subject ?? '',
              text: mail.text ?? '',
              html: typeof mail.html === 'string' ? mail.html : '',
              headers: new Map(
                mail.headerLines.map(({ key, line }) => [
                  key,
                  line
                    .slice(line.indexOf(':') + 1)
                    .replace(/\r?\n\s+/g, ' ')
                    .trim(),
                ]),
              ),
            });
            callback();
          })
          .catch((err: Error) => callback(err));
      },
    });
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', () => resolve()));
    const { port } = this.server.server.address() as AddressInfo;
    return `smtp://127.0.0.1:${port}`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** The newest message to `to`, waiting for it to arrive. */
  async waitFor(to: string, subject: RegExp, timeoutMs = 10_000): Promise<CapturedMail> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = [...this.messages].reverse().find((m) => m.to === to && subject.test(m.subject));
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no mail "${subject.source}" to ${to}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  /** The token of the link in a message (…?token=XYZ). */
  static token(mail: CapturedMail): string {
    const match = /[?&]token=([A-Za-z0-9_-]+)/.exec(mail.text);
    if (!match) throw new Error(`no token link in "${mail.subject}"`);
    return match[1]!;
  }
}
