import { type AppNotification, notificationText, pages } from '@seatlink/contracts';
import { formatMailTime } from '../../infra/mail/mail-time.js';
import type { MailMessage } from '../../infra/mail/mail.port.js';

const escape = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The address that unsubscribes with one click (RFC 8058: POSTed by the mail client; opened, it asks first). */
export const unsubscribeUrl = (dashboardUrl: string, token: string) =>
  `${dashboardUrl.replace(/\/+$/, '')}/v1/notifications/unsubscribe?token=${encodeURIComponent(token)}`;

/**
 * A notification e-mail: what happened, one line each, a way to the dashboard, to the settings and out. Its
 * `List-Unsubscribe` and `List-Unsubscribe-Post` headers let a mail client offer a one-click unsubscribe (RFC 8058).
 */
export function notificationEmail(options: {
  to: string;
  firstName: string;
  dashboardUrl: string;
  unsubscribeToken: string;
  notifications: readonly AppNotification[];
  digest: boolean;
}): MailMessage {
  const { to, firstName, dashboardUrl, unsubscribeToken, notifications, digest } = options;
  const base = dashboardUrl.replace(/\/+$/, '');
  const lines = notifications.map((n) => notificationText(n, formatMailTime));
  const subject = digest
    ? 'Your Seatlink daily digest'
    : lines.length === 1
      ? `Seatlink: ${lines[0]!}`
      : `Seatlink: ${lines.length} new notifications`;
  const intro = digest ? 'Here is what happened since your last digest:' : 'Here is what just happened:';
  const unsubscribe = unsubscribeUrl(base, unsubscribeToken);
  const dashboard = `${base}${pages.dashboard}`;
  const settings = `${base}${pages.settings}`;
  const text = [
    `Hello ${firstName},`,
    '',
    intro,
    ...lines.map((l) => `- ${l}`),
    '',
    `Open Seatlink: ${dashboard}`,
    '',
    `Choose which e-mails you get: ${settings}`,
    `Unsubscribe from these e-mails: ${unsubscribe}`,
  ].join('\n');
  const html = `<p>${escape(`Hello ${firstName},`)}</p><p>${escape(intro)}</p>
<ul>${lines.map((l) => `<li>${escape(l)}</li>`).join('')}</ul>
<p><a href="${escape(dashboard)}">Open Seatlink</a></p>
<p style="color:#64748b;font-size:12px"><a href="${escape(settings)}">Choose which e-mails you get</a> ·
<a href="${escape(unsubscribe)}">Unsubscribe</a></p>`;
  return {
    to,
    subject: subject.length > 200 ? `${subject.slice(0, 197)}...` : subject,
    text,
    html,
    link: dashboard,
    headers: {
      'List-Unsubscribe': `<${unsubscribe}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}
