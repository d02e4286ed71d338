import { z } from 'zod';
import { dateMessages, isoDateTime } from './dates.js';
import { hasForbiddenCharacters } from './text.js';
import { schema } from './schema.js';

/** SPEC.md §9: the audit log's event types, with their labels. */
export const AUDIT_EVENT_TYPES = {
  DISTRIBUTE: 'Ticket Distributed',
  TICKET_RECALLED: 'Ticket Recalled',
  LINK_UPDATED: 'Link Updated',
} as const;
export type AuditEventType = keyof typeof AUDIT_EVENT_TYPES;
export const AUDIT_STATUSES = ['SUCCESS', 'FAILED'] as const;
export type AuditStatus = (typeof AUDIT_STATUSES)[number];

/** SPEC.md §9: page size 50. */
export const AUDIT_PAGE_SIZE = 50;
export const MAX_AUDIT_PAGE_SIZE = 500;
/** Rows one CSV export holds at most. */
export const MAX_AUDIT_EXPORT_ROWS = 100_000;

/** SPEC.md §3 Audit entry. */
export interface AuditEntry {
  id: string;
  created_at: string;
  event_type: AuditEventType;
  event_data: {
    status: AuditStatus;
    ticket_id: string | null;
    distribution_id: string | null;
    [key: string]: unknown;
  };
  metadata: { ip_address: string | null; bulk_action: boolean };
}

export interface AuditsResponse {
  audits: AuditEntry[];
}

/** A query-string value that may be given once or repeated (`?status=SUCCESS&status=FAILED`). */
const repeated = <T extends z.ZodType>(item: T) =>
  z.preprocess((value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]), z.array(item).max(10));

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

/** GET /v1/admin/users/{id}/audits (SPEC.md §7): every filter optional; dates ISO. */
export const auditQuerySchema = schema(() =>
  z
    .object({
      start_date: isoDate('start_date'),
      end_date: isoDate('end_date'),
      event_type: repeated(z.enum(Object.keys(AUDIT_EVENT_TYPES) as [AuditEventType, ...AuditEventType[]])),
      status: repeated(z.enum(AUDIT_STATUSES)),
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
  /** What it was for: refund, dispute_lost, distribution... */
  reason: string | null;
}

export interface UserStateAt {
  at: string;
  balance: number;
  /** Every change of the credits up to the moment, oldest first (top-ups, spending, refunds, disputes). */
  credit_changes: CreditChange[];
  accounts: Array<{ account_id: string; email: string; linked_at: string }>;
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
