import { z } from 'zod';
import { dateMessages, isoDateTime } from './dates.js';
import { hasForbiddenCharacters } from './text.js';
import { schema } from './schema.js';

/**
 * The audit log's event types, with their labels: DISTRIBUTE and TICKET_RECALLED first
 * (docs/reference.md "Audit entry"), then what the log holds beyond them — everything that moves money, access or a
 * link (docs/user-guide.md "User Audit Log").
 */
export const AUDIT_EVENT_TYPES = {
  DISTRIBUTE: 'Ticket Distributed',
  TICKET_RECALLED: 'Ticket Recalled',
  LINK_UPDATED: 'Link Updated',
  LINK_CLAIMED: 'Link Claimed',
  CREDITS_SET: 'Credits Set',
  CREDITS_BOUGHT: 'Credits Bought',
  CREDITS_SPENT: 'Credits Spent',
  CREDITS_GIVEN_BACK: 'Credits Given Back',
  CREDITS_TAKEN_BACK: 'Credits Taken Back',
  PAYMENT_DISPUTED: 'Payment Disputed',
  USER_BANNED: 'User Banned',
  USER_UNBANNED: 'User Unbanned',
  PASSWORD_RESET_REQUESTED: 'Password Reset Requested',
  PASSWORD_CHANGED: 'Password Changed',
  NEW_DEVICE_SIGN_IN: 'Sign-in From New Device',
  SESSIONS_ENDED: 'Sessions Ended',
  AUTHENTICATOR_ADDED: 'Authenticator Added',
  AUTHENTICATOR_REMOVED: 'Authenticator Removed',
  PASSKEY_ADDED: 'Passkey Added',
  PASSKEY_REMOVED: 'Passkey Removed',
  RECOVERY_CODE_USED: 'Recovery Code Used',
  API_KEY_CREATED: 'API Key Created',
  API_KEY_REVOKED: 'API Key Revoked',
  WEBHOOK_ADDED: 'Webhook Added',
  WEBHOOK_CHANGED: 'Webhook Changed',
  WEBHOOK_DISABLED: 'Webhook Disabled',
  WEBHOOK_ENABLED: 'Webhook Enabled',
  WEBHOOK_DELETED: 'Webhook Deleted',
} as const;
export type AuditEventType = keyof typeof AUDIT_EVENT_TYPES;
export const AUDIT_STATUSES = ['SUCCESS', 'FAILED'] as const;
export type AuditStatus = (typeof AUDIT_STATUSES)[number];

/** What an entry moves: credits and card payments, who can get in (and what acts for the user), or a link. */
export const AUDIT_KINDS = { money: 'Money', access: 'Access', links: 'Links' } as const;
export type AuditKind = keyof typeof AUDIT_KINDS;

/** The kind of each event type (the kind filter and the kind a row shows). */
export const AUDIT_EVENT_KINDS: Readonly<Record<AuditEventType, AuditKind>> = {
  DISTRIBUTE: 'links',
  TICKET_RECALLED: 'links',
  LINK_UPDATED: 'links',
  LINK_CLAIMED: 'links',
  CREDITS_SET: 'money',
  CREDITS_BOUGHT: 'money',
  CREDITS_SPENT: 'money',
  CREDITS_GIVEN_BACK: 'money',
  CREDITS_TAKEN_BACK: 'money',
  PAYMENT_DISPUTED: 'money',
  USER_BANNED: 'access',
  USER_UNBANNED: 'access',
  PASSWORD_RESET_REQUESTED: 'access',
  PASSWORD_CHANGED: 'access',
  NEW_DEVICE_SIGN_IN: 'access',
  SESSIONS_ENDED: 'access',
  AUTHENTICATOR_ADDED: 'access',
  AUTHENTICATOR_REMOVED: 'access',
  PASSKEY_ADDED: 'access',
  PASSKEY_REMOVED: 'access',
  RECOVERY_CODE_USED: 'access',
  API_KEY_CREATED: 'access',
  API_KEY_REVOKED: 'access',
  WEBHOOK_ADDED: 'access',
  WEBHOOK_CHANGED: 'access',
  WEBHOOK_DISABLED: 'access',
  WEBHOOK_ENABLED: 'access',
  WEBHOOK_DELETED: 'access',
};

/** docs/reference.md "Limits and constants": page size 50. */
export const AUDIT_PAGE_SIZE = 50;
export const MAX_AUDIT_PAGE_SIZE = 500;
/** Rows one CSV export holds at most. */
export const MAX_AUDIT_EXPORT_ROWS = 100_000;

/**
 * What a person reads in place of an entry's ids (the ids stay in `event_data`, the details and the CSV); null where
 * the entry has none or it is not known.
 */
export interface AuditNames {
  /** The ticket's title, and its seat ('Section A, Row 3, Seat 12'). */
  ticket: string | null;
  seat: string | null;
  /** The link's label ('for Sam'). */
  link: string | null;
  /** Who did it when that was not the user: an admin's e-mail. */
  by: string | null;
  /** The API key a call was made with, by its name. */
  api_key: string | null;
  /** What the entry acts on besides a ticket and a link: an API key's name, a webhook's address, a passkey's name. */
  subject: string | null;
}

/** docs/reference.md "Audit entry", with its kind and the names a person reads (`names`). */
export interface AuditEntry {
  id: string;
  created_at: string;
  kind: AuditKind;
  event_type: AuditEventType;
  event_data: {
    status: AuditStatus;
    ticket_id: string | null;
    distribution_id: string | null;
    [key: string]: unknown;
  };
  metadata: { ip_address: string | null; bulk_action: boolean };
  names: AuditNames;
}

export interface AuditsResponse {
  audits: AuditEntry[];
}

/** A query-string value that may be given once or repeated (`?status=SUCCESS&status=FAILED`). */
const repeated = <T extends z.ZodType>(item: T, max: number, label: string) =>
  z.preprocess(
    (value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]),
    z.array(item).max(max, `${label} may be given at most ${max} times`),
  );

const isoDate = (label: string) => isoDateTime(dateMessages(label)).optional();

/** The start of an id or address to match (the filter boxes match what an entry's value starts with). */
const prefix = (label: string) =>
  z
    .string()
    .trim()
    .max(100, `${label} is too long`)
    .refine((value) => !hasForbiddenCharacters(value), `${label} contains characters that are not allowed`)
    .optional()
    .transform((value) => (value ? value : undefined));

const integer = (label: string, min: number, max: number, fallback: number) =>
  z.preprocess(
    (value) => (value === undefined || value === '' ? fallback : Number(value)),
    z
      .number({ error: `${label} must be a whole number` })
      .int(`${label} must be a whole number`)
      .min(min, `${label} must be at least ${min}`)
      .max(max, `${label} must be at most ${max}`),
  );

/** GET /v1/admin/users/{id}/audits (docs/reference.md "API calls"): every filter optional; dates ISO. */
export const auditQuerySchema = schema(() =>
  z
    .object({
      start_date: isoDate('start_date'),
      end_date: isoDate('end_date'),
      event_type: repeated(
        z.enum(Object.keys(AUDIT_EVENT_TYPES) as [AuditEventType, ...AuditEventType[]]),
        Object.keys(AUDIT_EVENT_TYPES).length,
        'event_type',
      ),
      status: repeated(z.enum(AUDIT_STATUSES), AUDIT_STATUSES.length, 'status'),
      kind: repeated(
        z.enum(Object.keys(AUDIT_KINDS) as [AuditKind, ...AuditKind[]]),
        Object.keys(AUDIT_KINDS).length,
        'kind',
      ),
      ticket_id: prefix('ticket_id'),
      distribution_id: prefix('distribution_id'),
      ip_address: prefix('ip_address'),
      limit: integer('limit', 1, MAX_AUDIT_PAGE_SIZE, AUDIT_PAGE_SIZE),
      offset: integer('offset', 0, 10_000_000, 0),
    })
    .refine((q) => !q.start_date || !q.end_date || q.start_date <= q.end_date, {
      message: 'start_date must not be after end_date',
      path: ['start_date'],
    }),
);
export type AuditQuery = z.output<typeof auditQuerySchema>;

/**
 * GET /v1/admin/users/{id}/history?at=ISO: the user's tickets, links and balance as they stood at that moment, folded
 * from the events (the history is the source of truth).
 */
/** One change of a user's credits, as the credit stream recorded it. */
export interface CreditChange {
  at: string;
  /** set by an admin, spent on links, given back for links not made, bought by card, taken back (refund, dispute lost), a dispute opened. */
  kind: 'set' | 'spent' | 'given_back' | 'purchased' | 'reversed' | 'disputed';
  /** Credits added (positive) or taken (negative); 0 for a dispute opened. */
  change: number;
  balance_after: number;
  /** The card payment it concerns (purchases, reversals, disputes). */
  payment_intent_id: string | null;
  /** What it was for: refund, dispute_lost, distribution...; for a set, the admin's reason (none before reasons were asked). */
  reason: string | null;
  /** Who set it (a set by an admin): their e-mail; null for other changes. */
  by: string | null;
}

export interface UserStateAt {
  at: string;
  balance: number;
  /** Every change of the credits up to the moment, oldest first (top-ups, spending, refunds, disputes). */
  credit_changes: CreditChange[];
  accounts: Array<{ account_id: string; email: string; linked_at: string }>;
  /** How the user could get in then, and what acted for them: the audit log's access entries, folded. */
  access: {
    banned: boolean;
    /** An authenticator app was on. */
    authenticator: boolean;
    /** Passkeys by name. */
    passkeys: string[];
    /** API keys that worked then. */
    api_keys: Array<{ key_id: string; name: string; scopes: string[]; created_at: string }>;
    /** Webhook endpoints then (not deleted). */
    webhooks: Array<{ endpoint_id: string; url: string; events: string[]; enabled: boolean }>;
  };
  tickets: Array<{
    ticket_id: string;
    account_id: string;
    account_email: string;
    title: string;
    subtitle: string | null;
    venue_name: string | null;
    seat_info: string | null;
    distribution: {
      distribution_id: string;
      link: string;
      clicks: number;
      max_clicks: number | null;
      expires_at: string | null;
      label: string | null;
      created_at: string;
    } | null;
  }>;
}

export const historyQuerySchema = schema(() =>
  z.object({
    at: isoDateTime(dateMessages('at')),
  }),
);
