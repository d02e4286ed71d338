import { RECIPIENT_MAIL } from '@seatlink/contracts';
import { formatMailTime } from '../../infra/mail/mail-time.js';
import type { MailMessage } from '../../infra/mail/mail.port.js';
import { escapeHtml } from '../../infra/mail/simple-message.js';

/** The kinds of e-mail a link's named recipient gets. */
export type RecipientMailKind = 'link' | 'recalled' | 'expiry-moved' | 'expiring';

export interface RecipientMailFacts {
  kind: RecipientMailKind;
  to: string;
  name: string | null;
  /** The holder, as the recipient knows them: their name, else their e-mail. */
  sender: string;
  /** "Arsenal v Chelsea · Section 112, Row F, Seat 7". */
  ticket: string;
  link: string;
  hasPin: boolean;
  expiresAt: string | null;
  unsubscribeUrl: string;
}

/**
 * An e-mail to a link's named recipient: the link itself (never its PIN: only its hash is kept, and the sender gives
 * it), its withdrawal, its expiry moved or near. Plain, with the link, the ticket and the sender, and a one-click
 * unsubscribe from this link's e-mails (`List-Unsubscribe`, RFC 8058).
 */
export function recipientEmail(f: RecipientMailFacts): MailMessage {
  const when = f.expiresAt === null ? null : formatMailTime(f.expiresAt);
  let subject: string;
  let lines: string[];
  let action: string | null = RECIPIENT_MAIL.sentAction;
  switch (f.kind) {
    case 'link':
      subject = RECIPIENT_MAIL.sentSubject(f.sender);
      lines = [
        RECIPIENT_MAIL.sentIntro(f.sender, f.ticket),
        ...(f.hasPin ? [RECIPIENT_MAIL.pinNote] : []),
        ...(when ? [RECIPIENT_MAIL.expiresNote(when)] : []),
      ];
      break;
    case 'recalled':
      subject = RECIPIENT_MAIL.recalledSubject(f.sender);
      lines = [RECIPIENT_MAIL.recalledIntro(f.sender, f.ticket)];
      action = null;
      break;
    case 'expiry-moved':
      subject = RECIPIENT_MAIL.expiryMovedSubject;
      lines = [RECIPIENT_MAIL.expiryMovedIntro(f.sender, f.ticket, when)];
      break;
    case 'expiring':
      subject = RECIPIENT_MAIL.expiringSubject;
      lines = [RECIPIENT_MAIL.expiringIntro(f.ticket, when ?? '')];
      break;
  }
  const greeting = RECIPIENT_MAIL.greeting(f.name);
  const text = [
    greeting,
    '',
    ...lines,
    ...(action ? ['', `${action}: ${f.link}`] : []),
    '',
    'Seatlink',
    '',
    `${RECIPIENT_MAIL.unsubscribe}: ${f.unsubscribeUrl}`,
  ].join('\n');
  const html = `<p>${escapeHtml(greeting)}</p>${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('')}
${action ? `<p><a href="${escapeHtml(f.link)}">${escapeHtml(action)}</a></p>` : ''}<p>Seatlink</p>
<p style="color:#64748b;font-size:12px"><a href="${escapeHtml(f.unsubscribeUrl)}">${escapeHtml(RECIPIENT_MAIL.unsubscribe)}</a></p>`;
  return {
    to: f.to,
    subject: subject.length > 200 ? `${subject.slice(0, 197)}...` : subject,
    text,
    html,
    ...(action ? { link: f.link } : {}),
    headers: {
      'List-Unsubscribe': `<${f.unsubscribeUrl}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}
