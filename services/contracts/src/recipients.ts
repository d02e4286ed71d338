import { z } from 'zod';
import { named, schema } from './schema.js';
import { emailAddress, hasForbiddenCharacters } from './text.js';

/** The longest name of a link's recipient ("Sam Jones"), in characters (code points). */
export const MAX_RECIPIENT_NAME = 80;

export const RECIPIENT_MESSAGES = {
  nameNotText: 'Recipient name must be text, or null for none',
  nameTooLong: `Recipient name must be at most ${MAX_RECIPIENT_NAME} characters`,
  nameNotAllowed: 'Recipient name contains characters that are not allowed',
  email: 'Recipient email must be a valid email address, or null for none',
  notObject: 'Recipient must be an object with name and email, or null for none',
  ticketNotListed: (ticketId: string) => `Recipient for ticket ${ticketId}: that ticket is not among ticket_ids`,
  ticketTwice: (ticketId: string) => `Ticket ${ticketId} has more than one recipient`,
  tooMany: 'At most one recipient per ticket',
  tooManyLinks: 'At most one recipient per link',
  linkNotListed: (id: string) => `Recipient for link ${id}: that link is not among distribution_ids`,
  linkTwice: (id: string) => `Link ${id} has more than one recipient`,
  // A bulk edit: the links the pasted lines do not reach keep their recipient.
  keptRecipient: 'Unchanged',
  fewerLinesKept: (lines: number, links: number) =>
    `${lines} ${lines === 1 ? 'recipient' : 'recipients'} for ${links} links: ${links - lines === 1 ? 'the last keeps its recipient' : `the last ${links - lines} keep their recipients`}`,
  moreLinesThanLinks: (lines: number, links: number) =>
    `${lines} recipients for ${links} ${links === 1 ? 'link' : 'links'}: remove ${lines - links} ${lines - links === 1 ? 'line' : 'lines'}`,
  // The paste box of the Distribution Settings dialog (one line per ticket).
  pasteLabel: 'Recipients (optional)',
  pasteHint: 'One line per ticket, in order: Name <email>, Name, email, an email or a name',
  checkTitle: 'Ticket → Recipient',
  noRecipient: 'No recipient',
  moreLines: (lines: number, tickets: number) =>
    `${lines} recipients for ${tickets} ${tickets === 1 ? 'ticket' : 'tickets'}: remove ${lines - tickets} ${lines - tickets === 1 ? 'line' : 'lines'}`,
  fewerLines: (lines: number, tickets: number) =>
    `${lines} ${lines === 1 ? 'recipient' : 'recipients'} for ${tickets} tickets: ${tickets - lines === 1 ? 'the last ticket gets none' : `the last ${tickets - lines} tickets get none`}`,
  badLine: (line: number, reason: string) => `Line ${line}: ${reason}`,
  badEmail: 'not a valid email address',
  nameField: 'Recipient name',
  emailField: 'Recipient email',
  /** The ticket card: whom the link is for. */
  cardRecipient: (who: string) => `To ${who}`,
} as const;

/** An e-mail address's shape, as the contracts' `emailAddress` (zod's) takes it. */
const EMAIL_SHAPE = /^(?!\.)(?!.*\.\.)([A-Za-z0-9_'+\-.]*)[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;

/** A recipient's name: trimmed, at most MAX_RECIPIENT_NAME characters, plain text; empty is none (null). */
export const recipientNameSchema = schema(() =>
  z
    .string({ error: RECIPIENT_MESSAGES.nameNotText })
    .trim()
    .refine((value) => [...value].length <= MAX_RECIPIENT_NAME, RECIPIENT_MESSAGES.nameTooLong)
    .refine((value) => !hasForbiddenCharacters(value), RECIPIENT_MESSAGES.nameNotAllowed)
    .transform((value) => (value === '' ? null : value)),
);

/** A recipient's e-mail address (trimmed, lower-cased); empty is none (null). */
export const recipientEmailSchema = schema(() =>
  z.union([z.literal('').transform(() => null), emailAddress(RECIPIENT_MESSAGES.email)], {
    error: RECIPIENT_MESSAGES.email,
  }),
);

const recipientFields = () => ({
  name: recipientNameSchema.nullish().transform((value) => value ?? null),
  email: recipientEmailSchema.nullish().transform((value) => value ?? null),
});

/** Whom a link is for, as the API answers it: a name, an e-mail, or both. */
export const linkRecipientSchema = schema(() =>
  named('LinkRecipient', z.object({ name: z.string().nullable(), email: z.string().nullable() })),
);
export type LinkRecipient = z.infer<typeof linkRecipientSchema>;

/** A recipient with neither a name nor an e-mail is none. */
const orNone = (r: { name: string | null; email: string | null }): LinkRecipient | null =>
  r.name === null && r.email === null ? null : r;

/** PATCH /v1/distributions/{id}'s `recipient`: `{ name?, email? }`, or null to remove it. */
export const recipientChangeSchema = schema(() =>
  z.strictObject(recipientFields(), { error: RECIPIENT_MESSAGES.notObject }).transform(orNone).nullable(),
);

/** One entry of POST /v1/tickets/distribute's `recipients`: whom the link of one of its tickets is for. */
export const distributeRecipientSchema = schema(() =>
  z.strictObject(
    { ticket_id: z.uuid({ error: 'Each recipient ticket_id must be a UUID' }), ...recipientFields() },
    { error: RECIPIENT_MESSAGES.notObject },
  ),
);

/** One entry of PATCH /v1/distributions's `recipients`: whom one of its links is for (neither: nobody any more). */
export const bulkRecipientSchema = schema(() =>
  z
    .strictObject(
      { distribution_id: z.uuid({ error: 'Each recipient distribution_id must be a UUID' }), ...recipientFields() },
      { error: RECIPIENT_MESSAGES.notObject },
    )
    .transform(({ distribution_id, ...r }) => ({ distribution_id, recipient: orNone(r) })),
);

/**
 * A request's recipients name only what it lists (its `ticket_ids` or `distribution_ids`), each at most once: an
 * issue at the entry's id otherwise.
 */
export function checkRecipientsListed<K extends 'ticket_id' | 'distribution_id'>(
  listed: readonly string[],
  entries: ReadonlyArray<Record<K, string>>,
  key: K,
  ctx: z.RefinementCtx,
): void {
  const among = new Set(listed);
  const seen = new Set<string>();
  const [notListed, twice] =
    key === 'ticket_id'
      ? [RECIPIENT_MESSAGES.ticketNotListed, RECIPIENT_MESSAGES.ticketTwice]
      : [RECIPIENT_MESSAGES.linkNotListed, RECIPIENT_MESSAGES.linkTwice];
  for (const [i, entry] of entries.entries()) {
    const id = entry[key];
    if (!among.has(id)) ctx.addIssue({ code: 'custom', path: ['recipients', i, key], message: notListed(id) });
    else if (seen.has(id)) ctx.addIssue({ code: 'custom', path: ['recipients', i, key], message: twice(id) });
    seen.add(id);
  }
}

// ---- The paste box: one line per ticket --------------------------------------------------------------------------

/** One pasted line, read. */
export type PastedRecipient =
  { line: number; ok: true; recipient: LinkRecipient } | { line: number; ok: false; error: string };

const looksLikeEmail = (s: string) => s.includes('@');

/**
 * A recipient's name and e-mail as a form holds them, checked as recipientNameSchema and recipientEmailSchema check
 * them (the server checks again with those) but without zod, which the dashboard's overview does not carry: what is
 * wrong with each (null: nothing), and the recipient (blank fields are none).
 */
export function checkRecipient(
  name: string,
  email: string,
): { nameError: string | null; emailError: string | null; recipient: LinkRecipient } {
  const trimmed = name.trim();
  const nameError =
    [...trimmed].length > MAX_RECIPIENT_NAME
      ? RECIPIENT_MESSAGES.nameTooLong
      : hasForbiddenCharacters(trimmed)
        ? RECIPIENT_MESSAGES.nameNotAllowed
        : null;
  const address = email.trim().toLowerCase();
  const emailError =
    address !== '' && (address.length > 254 || !EMAIL_SHAPE.test(address)) ? RECIPIENT_MESSAGES.email : null;
  return {
    nameError,
    emailError,
    recipient: {
      name: nameError || trimmed === '' ? null : trimmed,
      email: emailError || address === '' ? null : address,
    },
  };
}

/**
 * Reads a pasted list of recipients, one non-empty line per ticket in order: `Name <email>`, `Name, email`,
 * `Name<TAB>email` (a spreadsheet's two columns), an e-mail alone or a name alone. A line with a bad e-mail, or a name
 * not allowed, is an error naming its line number (1-based, counting the lines as pasted).
 */
export function parseRecipientLines(text: string): PastedRecipient[] {
  const out: PastedRecipient[] = [];
  const lines = text.split(/\r\n|\r|\n/);
  lines.forEach((raw, index) => {
    const line = index + 1;
    const trimmed = raw.trim();
    if (trimmed === '') return;
    let name: string;
    let email: string | null = null;
    const angle = /^(.*?)\s*<([^<>]*)>\s*$/.exec(trimmed);
    if (angle) {
      name = angle[1]!.trim().replace(/^"(.*)"$/, '$1');
      email = angle[2]!.trim();
    } else {
      const parts = trimmed.split(/\t|,|;/).map((p) => p.trim());
      const last = parts.at(-1)!;
      if (parts.length > 1 && looksLikeEmail(last)) {
        email = last;
        name = parts.slice(0, -1).join(' ').trim();
      } else if (parts.length === 1 && looksLikeEmail(last)) {
        email = last;
        name = '';
      } else {
        name = parts.filter((p) => p !== '').join(', ');
      }
    }
    // Checked as a form's fields are (checkRecipient: without zod, which the dashboard's overview does not carry).
    const { nameError, emailError, recipient } = checkRecipient(name, email ?? '');
    if (nameError || emailError) {
      const reason = nameError ?? RECIPIENT_MESSAGES.badEmail;
      out.push({ line, ok: false, error: RECIPIENT_MESSAGES.badLine(line, reason) });
      return;
    }
    out.push({ line, ok: true, recipient });
  });
  return out;
}

/** How the pasted recipients fit the selected tickets (the check before Distribute). */
export function matchRecipients(
  pasted: readonly PastedRecipient[],
  tickets: number,
  /** Links being edited: those past the last line keep their recipient (not: get none). */
  keep = false,
): { errors: string[]; warning: string | null; recipients: Array<LinkRecipient | null> } {
  const errors = pasted.flatMap((p) => (p.ok ? [] : [p.error]));
  const more = keep ? RECIPIENT_MESSAGES.moreLinesThanLinks : RECIPIENT_MESSAGES.moreLines;
  if (pasted.length > tickets) errors.push(more(pasted.length, tickets));
  const fewer = keep ? RECIPIENT_MESSAGES.fewerLinesKept : RECIPIENT_MESSAGES.fewerLines;
  const warning = pasted.length > 0 && pasted.length < tickets ? fewer(pasted.length, tickets) : null;
  const recipients = Array.from({ length: tickets }, (_, i) => {
    const p = pasted[i];
    return p?.ok ? p.recipient : null;
  });
  return { errors, warning, recipients };
}

/** A recipient as one line shows it: the name, else the e-mail. */
export const recipientDisplay = (r: LinkRecipient | null | undefined): string | null => r?.name ?? r?.email ?? null;

// ---- The e-mails a named recipient gets ------------------------------------------------------------------------------

export const RECIPIENT_MAIL = {
  sentSubject: (sender: string) => `${sender} sent you a ticket`,
  sentIntro: (sender: string, ticket: string) => `${sender} sent you a ticket for ${ticket}.`,
  sentAction: 'Open your ticket',
  pinNote: 'The link asks for a PIN: the sender will give you it.',
  expiresNote: (when: string) => `The link works until ${when} (UK time).`,
  recalledSubject: (sender: string) => `${sender} withdrew your ticket link`,
  recalledIntro: (sender: string, ticket: string) =>
    `${sender} withdrew the link to the ticket for ${ticket}. It no longer opens.`,
  expiryMovedSubject: 'The expiry of your ticket link changed',
  expiryMovedIntro: (sender: string, ticket: string, when: string | null) =>
    when === null
      ? `${sender} changed the link to the ticket for ${ticket}: it no longer expires.`
      : `${sender} changed the link to the ticket for ${ticket}: it now works until ${when} (UK time).`,
  expiringSubject: 'Your ticket link expires soon',
  expiringIntro: (ticket: string, when: string) =>
    `The link to your ticket for ${ticket} expires on ${when} (UK time). Add the ticket to your wallet before then.`,
  greeting: (name: string | null) => (name ? `Hello ${name},` : 'Hello,'),
  unsubscribe: 'Stop e-mails about this link',
  // The unsubscribe page.
  unsubscribed: 'You will get no more e-mails about this link',
  unsubscribeInvalid: 'This unsubscribe link is not valid',
  unsubscribeAsk: 'Stop e-mails from Seatlink about this ticket link?',
} as const;

/** The query of a recipient's unsubscribe link: its signed token. */
export const recipientUnsubscribeQuerySchema = schema(() =>
  z.object({
    token: z
      .string({ error: RECIPIENT_MAIL.unsubscribeInvalid })
      .max(2000, RECIPIENT_MAIL.unsubscribeInvalid)
      .regex(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/, RECIPIENT_MAIL.unsubscribeInvalid),
  }),
);

/** A recipient in one line, as the audit log says it: `Sam <sam@example.com>`, `Sam` or `sam@example.com`. */
export function recipientLine(r: LinkRecipient | null | undefined): string | null {
  if (!r || (r.name === null && r.email === null)) return null;
  if (r.name !== null && r.email !== null) return `${r.name} <${r.email}>`;
  return r.name ?? r.email;
}
