import type { MailMessage, Mailer } from './mail.port.js';

/**
 * Keeps every message in memory, for tests (DATA_DIR=memory://): read `messages` to find the mail a flow sent and
 * follow its `link`.
 */
export class MemoryMailer implements Mailer {
  readonly messages: MailMessage[] = [];

  send(message: MailMessage): Promise<void> {
    this.messages.push({ ...message });
    return Promise.resolve();
  }

  /** The latest message to this address, if any. */
  lastTo(to: string): MailMessage | undefined {
    return this.messages.findLast((m) => m.to.toLowerCase() === to.toLowerCase());
  }

  clear(): void {
    this.messages.length = 0;
  }
}
