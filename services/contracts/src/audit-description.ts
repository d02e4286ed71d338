import type { AuditEntry } from './audit.js';
import { PIN_GUESS_WINDOW_MINUTES } from './links.js';
import { webhookMoment } from './webhooks.js';

/**
 * An audit entry in the words a person reads (docs/user-guide.md "User Audit Log"): what the row says under its event
 * type in the dashboard, and the CSV's Summary column. The ids are not in it: they stay in the details and the CSV.
 */

export interface AuditDescriptionFormat {
  /** A time of day as the reader reads it ('14:05' in the dashboard's time zone; ISO in a CSV). */
  time: (iso: string) => string;
  /** A moment as the reader reads it ('22 Nov 2026, 14:05'). */
  dateTime: (iso: string) => string;
  /**
   * Whether the words name the ticket and link (default): a table that shows them in columns of their own leaves them
   * out.
   */
  subject?: boolean;
}

const count = new Intl.NumberFormat('en-GB');

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
const whole = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);
const plural = (n: number, one: string, many: string) => `${count.format(n)} ${n === 1 ? one : many}`;
const quoted = (value: string | null) => (value === null ? null : `“${value}”`);
const credits = (n: number) => plural(n, 'credit', 'credits');
const pounds = (pence: number | null) => (pence === null ? null : `£${(pence / 100).toFixed(2)}`);
const balance = (value: unknown) => {
  const n = whole(value);
  return n === null ? null : `balance ${count.format(n)}`;
};
const list = (value: unknown) =>
  Array.isArray(value) && value.length > 0 ? value.filter((v) => typeof v === 'string').join(', ') : null;

/** The names of a link's settings in a LINK_UPDATED entry's `changes`, in the order they are told. */
const SETTING_LABELS: Record<string, string> = {
  expiry_date: 'Expiry',
  max_clicks: 'Click limit',
  label: 'Label',
  pin: 'PIN',
  recipient: 'Recipient',
  recipient_emails: 'Recipient e-mails',
};

function settingValue(name: string, value: unknown, format: AuditDescriptionFormat): string {
  if (value === null || value === undefined || value === '') {
    return name === 'expiry_date' ? 'never' : name === 'max_clicks' ? 'unlimited' : 'none';
  }
  if (name === 'expiry_date' && typeof value === 'string') return format.dateTime(value);
  if (name === 'label' && typeof value === 'string') return `“${value}”`;
  return String(value);
}

/** 'Click limit 5 → 12; Label none → “for Sam”', in the settings' own order. */
function describeChanges(changes: unknown, format: AuditDescriptionFormat): string | null {
  if (typeof changes !== 'object' || changes === null) return null;
  const order = Object.keys(SETTING_LABELS);
  const rank = (name: string) => (order.includes(name) ? order.indexOf(name) : order.length);
  const told = Object.entries(changes as Record<string, { from?: unknown; to?: unknown } | null>)
    .sort(([a], [b]) => rank(a) - rank(b))
    .map(
      ([name, change]) =>
        `${SETTING_LABELS[name] ?? name} ${settingValue(name, change?.from, format)} → ${settingValue(name, change?.to, format)}`,
    );
  return told.length > 0 ? told.join('; ') : null;
}

/** The ticket and link an entry is about: 'Pine Hollow (Section A, Row 3, Seat 12) · “for Sam”'; null for none. */
export function auditSubject(entry: Pick<AuditEntry, 'names'>): string | null {
  const { ticket, seat, link } = entry.names;
  const parts = [ticket ? (seat ? `${ticket} (${seat})` : ticket) : null, quoted(link)].filter((p) => p !== null);
  return parts.length > 0 ? parts.join(' · ') : null;
}

/** What the entry says beyond its event type, in one line (parts joined by ' · '); '' when it says nothing more. */
export function describeAuditEntry(entry: AuditEntry, format: AuditDescriptionFormat): string {
  const data = entry.event_data;
  const { names } = entry;
  const by = names.by ? `by ${names.by}` : null;
  const failed = data.status === 'FAILED';
  const subject = format.subject === false ? null : auditSubject(entry);
  let parts: Array<string | null>;
  switch (entry.event_type) {
    case 'DISTRIBUTE': {
      const maxClicks = whole(data.max_clicks);
      const cost = whole(data.cost);
      const expiresAt = text(data.expires_at);
      parts = failed
        ? [subject, text(data.reason)]
        : [
            subject,
            cost === null ? null : credits(cost),
            maxClicks ? `at most ${plural(maxClicks, 'click', 'clicks')}` : null,
            expiresAt ? `expires ${format.dateTime(expiresAt)}` : null,
            text(data.recipient) ? `to ${text(data.recipient)}` : null,
          ];
      break;
    }
    case 'TICKET_RECALLED':
      parts = [subject, failed ? text(data.reason) : null];
      break;
    case 'LINK_UPDATED':
      parts = failed
        ? [subject, text(data.reason)]
        : [subject, describeChanges(data.changes, format), text(data.reason)];
      break;
    case 'LINK_PIN_GUESSED': {
      const failures = whole(data.failures) ?? 0;
      parts = [subject, `${plural(failures, 'wrong PIN', 'wrong PINs')} within ${PIN_GUESS_WINDOW_MINUTES} minutes`];
      break;
    }
    case 'LINK_CLAIMED': {
      const claims = whole(data.claims) ?? 1;
      const last = text(data.last_claim_at);
      const first = format.time(entry.created_at);
      const span = last && claims > 1 ? `${first}–${format.time(last)}` : `at ${first}`;
      parts = [`${plural(claims, 'claim', 'claims')} ${span}`, subject];
      break;
    }
    case 'LINK_OPENED': {
      const opens = whole(data.opens) ?? 1;
      const last = text(data.last_open_at);
      const first = format.time(entry.created_at);
      const span = last && opens > 1 ? `${first}–${format.time(last)}` : `at ${first}`;
      parts = [`opened on ${plural(opens, 'new device', 'new devices')} ${span}`, subject];
      break;
    }
    case 'CREDITS_SET': {
      const from = whole(data.from);
      const to = whole(data.to);
      parts = [
        from !== null && to !== null ? `${count.format(from)} → ${count.format(to)}` : null,
        by,
        quoted(text(data.reason)) ?? 'no reason recorded',
      ];
      break;
    }
    case 'CREDITS_BOUGHT':
      parts = [
        `+${credits(whole(data.amount) ?? 0)} by card`,
        pounds(whole(data.amount_pence)),
        balance(data.balance_after),
      ];
      break;
    case 'CREDITS_SPENT':
      parts = [
        `−${credits(whole(data.amount) ?? 0)} for ${plural(whole(data.links) ?? 0, 'link', 'links')}`,
        balance(data.balance_after),
      ];
      break;
    case 'CREDITS_GIVEN_BACK':
      parts = [
        `+${credits(whole(data.amount) ?? 0)} for ${plural(whole(data.links) ?? 0, 'link', 'links')} not made`,
        balance(data.balance_after),
      ];
      break;
    case 'CREDITS_TAKEN_BACK': {
      const amount = whole(data.amount) ?? 0;
      const short = (whole(data.requested) ?? amount) - amount;
      parts = [
        `−${credits(amount)}`,
        data.reason === 'dispute_lost' ? 'card dispute lost' : 'card payment refunded',
        short > 0 ? `${credits(short)} more could not be taken: the balance held no more` : null,
        balance(data.balance_after),
      ];
      break;
    }
    case 'PAYMENT_DISPUTED': {
      const amount = pounds(whole(data.amount_pence));
      parts = [amount ? `${amount} disputed` : 'disputed', text(data.reason)];
      break;
    }
    case 'USER_BANNED':
    case 'USER_UNBANNED':
      parts = [by];
      break;
    case 'PASSWORD_RESET_REQUESTED':
      parts = [by ?? 'asked for by the user'];
      break;
    case 'PASSWORD_CHANGED':
      parts = [data.reason === 'reset' ? 'with a reset link' : null];
      break;
    case 'NEW_DEVICE_SIGN_IN':
      parts = [text(data.device)];
      break;
    case 'SESSIONS_ENDED': {
      const sessions = whole(data.sessions);
      parts = [sessions === null ? null : `${plural(sessions, 'session', 'sessions')} signed out`];
      break;
    }
    case 'AUTHENTICATOR_ADDED': {
      const codes = whole(data.recovery_codes);
      parts = [codes ? `${plural(codes, 'recovery code', 'recovery codes')} given` : null];
      break;
    }
    case 'PASSKEY_ADDED': {
      const codes = whole(data.recovery_codes);
      parts = [
        quoted(text(data.name) ?? names.subject),
        codes ? `${plural(codes, 'recovery code', 'recovery codes')} given` : null,
      ];
      break;
    }
    case 'PASSKEY_REMOVED':
    case 'API_KEY_REVOKED':
      parts = [quoted(names.subject)];
      break;
    case 'API_KEY_CREATED':
      parts = [quoted(text(data.name) ?? names.subject), list(data.scopes)];
      break;
    case 'WEBHOOK_ADDED':
      parts = [text(data.url) ?? names.subject, list(data.events)];
      break;
    case 'WEBHOOK_CHANGED':
      parts = data.secret_rolled
        ? [
            names.subject,
            'new signing secret',
            typeof data.previous_secret_until === 'string'
              ? `the old one signs until ${webhookMoment(data.previous_secret_until)}`
              : null,
          ]
        : [text(data.url) ?? names.subject, list(data.events)];
      break;
    case 'WEBHOOK_DISABLED':
      parts = [names.subject, data.by === 'seatlink' ? `by Seatlink: ${text(data.reason) ?? 'failing'}` : null];
      break;
    case 'AUTHENTICATOR_REMOVED':
    case 'RECOVERY_CODE_USED':
    case 'WEBHOOK_ENABLED':
    case 'WEBHOOK_DELETED':
      parts = [names.subject];
      break;
  }
  if (names.api_key) parts.push(`with API key “${names.api_key}”`);
  return parts.filter((p): p is string => p !== null && p !== '').join(' · ');
}
