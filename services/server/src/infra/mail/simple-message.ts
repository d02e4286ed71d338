import type { MailMessage } from './mail.port.js';

export const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A short e-mail: a greeting, a few paragraphs, one action (a link), signed Seatlink; as text and as HTML. */
export function simpleMessage(
  to: string,
  subject: string,
  greeting: string,
  lines: string[],
  action: string,
  link: string,
): MailMessage {
  const text = [greeting, '', ...lines, '', `${action}: ${link}`, '', 'Seatlink'].join('\n');
  const html = `<p>${escapeHtml(greeting)}</p>${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('')}
<p><a href="${escapeHtml(link)}">${escapeHtml(action)}</a></p><p>Seatlink</p>`;
  return { to, subject, text, html, link };
}
