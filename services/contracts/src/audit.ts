import { z } from 'zod';
import { dateMessages, isoDateTime } from './dates.js';
import { hasForbiddenCharacters } from './text.js';
import { named, schema, timestampSchema } from './schema.js';

/**
 * The audit log's event types, with their labels: DISTRIBUTE and TICKET_RECALLED first
 * (docs/reference.md "Audit entry"), then what the log holds beyond them — everything that moves money, access or a
 * link (docs/user-guide.md "User Audit Log").
 */
export const AUDIT_EVENT_TYPES = {
  DISTRIBUTE: 'Ticket Distributed',
  TICKET_RECALLED: 'Ticket Recalled',
  LINK_UPDATED: 'Link Updated',
  LINK_PIN_GUESSED: 'Link PIN Guessed',
  LINK_CLAIMED: 'Link Claimed',
  LINK_OPENED: 'Link Opened',
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
  LINK_PIN_GUESSED: 'links',
  LINK_CLAIMED: 'links',
  LINK_OPENED: 'links',
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
export const auditNamesSchema = schema(() =>
  named(
    'AuditNames',
    z.object({
      /** The ticket's title, and its seat ('Section A, Row 3, Seat 12'). */
      ticket: z.string().nullable(),
      seat: z.string().nullable(),
      /** The link's label ('for Sam'). */
      link: z.string().nullable(),
      /** Who did it when that was not the user: an admin's e-mail. */
      by: z.string().nullable(),
      /** The API key a call was made with, by its name. */
      api_key: z.string().nullable(),
      /** What the entry acts on besides a ticket and a link: an API key's name, a webhook's address, a passkey's name. */
      subject: z.string().nullable(),
    }),
  ),
);
export type AuditNames = z.infer<typeof auditNamesSchema>;

const auditEventTypes = () => Object.keys(AUDIT_EVENT_TYPES) as [AuditEventType, ...AuditEventType[]];
const auditKinds = () => Object.keys(AUDIT_KINDS) as [AuditKind, ...AuditKind[]];

/** docs/reference.md "Audit entry", with its kind and the names a person reads (`names`). */
export const auditEntrySchema = schema(() =>
  named(
    'AuditEntry',
    z.object({
      /** The event's id; for a link's claims in an hour, one derived from the link and the hour (UUID-shaped, no version). */
      id: z.guid(),
      created_at: timestampSchema,
      kind: z.enum(auditKinds()),
      event_type: z.enum(auditEventTypes()),
      /**
       * What the event says: its status, ticket and link always (null where it has none), and the fields of its own
       * (the credits set, the claims of an hour, the admin's user id...).
       */
      event_data: z
        .object({
          status: z.enum(AUDIT_STATUSES),
          ticket_id: z.string().nullable(),
          distribution_id: z.string().nullable(),
        })
        .catchall(z.unknown()),
      metadata: z.object({ ip_address: z.string().nullable(), bulk_action: z.boolean() }),
      names: auditNamesSchema,
    }),
  ),
);
export type AuditEntry = z.infer<typeof auditEntrySchema>;

/** GET /v1/admin/users/{id}/audits: a page of the user's log, newest first. */
export const auditsResponseSchema = schema(() =>
  named('AuditsResponse', z.object({ audits: z.array(auditEntrySchema) })),
);
export type AuditsResponse = z.infer<typeof auditsResponseSchema>;

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

/** One change of a user's credits, as the credit stream recorded it. */
export const creditChangeSchema = schema(() =>
  named(
    'CreditChange',
    z.object({
      at: timestampSchema,
      /** set by an admin, spent on links, given back for links not made, bought by card, taken back (refund, dispute lost), a dispute opened. */
      kind: z.enum(['set', 'spent', 'given_back', 'purchased', 'reversed', 'disputed']),
      /** Credits added (positive) or taken (negative); 0 for a dispute opened. */
      change: z.int(),
      balance_after: z.int(),
      /** The card payment it concerns (purchases, reversals, disputes). */
      payment_intent_id: z.string().nullable(),
      /** What it was for: refund, dispute_lost, distribution...; for a set, the admin's reason (none before reasons were asked). */
      reason: z.string().nullable(),
      /** Who set it (a set by an admin): their e-mail; null for other changes. */
      by: z.string().nullable(),
    }),
  ),
);
export type CreditChange = z.infer<typeof creditChangeSchema>;

/**
 * GET /v1/admin/users/{id}/history?at=ISO: the user's tickets, links and balance as they stood at that moment, folded
 * from the events (the history is the source of truth).
 */
export const userStateAtSchema = schema(() =>
  named(
    'UserStateAt',
    z.object({
      at: timestampSchema,
      balance: z.int(),
      /** Every change of the credits up to the moment, oldest first (top-ups, spending, refunds, disputes). */
      credit_changes: z.array(creditChangeSchema),
      accounts: z.array(z.object({ account_id: z.uuid(), email: z.string(), linked_at: timestampSchema })),
      /** How the user could get in then, and what acted for them: the audit log's access entries, folded. */
      access: z.object({
        banned: z.boolean(),
        /** An authenticator app was on. */
        authenticator: z.boolean(),
        /** Passkeys by name. */
        passkeys: z.array(z.string()),
        /** API keys that worked then. */
        api_keys: z.array(
          z.object({ key_id: z.uuid(), name: z.string(), scopes: z.array(z.string()), created_at: timestampSchema }),
        ),
        /** Webhook endpoints then (not deleted). */
        webhooks: z.array(
          z.object({ endpoint_id: z.uuid(), url: z.string(), events: z.array(z.string()), enabled: z.boolean() }),
        ),
      }),
      tickets: z.array(
        z.object({
          ticket_id: z.uuid(),
          account_id: z.uuid(),
          account_email: z.string(),
          title: z.string(),
          subtitle: z.string().nullable(),
          venue_name: z.string().nullable(),
          seat_info: z.string().nullable(),
          /** Its link then, or null when it had none. */
          distribution: z
            .object({
              distribution_id: z.uuid(),
              link: z.url(),
              clicks: z.int().min(0),
              max_clicks: z.int().min(0).nullable(),
              expires_at: timestampSchema.nullable(),
              label: z.string().nullable(),
              created_at: timestampSchema,
            })
            .nullable(),
        }),
      ),
    }),
  ),
);
export type UserStateAt = z.infer<typeof userStateAtSchema>;

export const historyQuerySchema = schema(() =>
  z.object({
    at: isoDateTime(dateMessages('at')),
  }),
);
