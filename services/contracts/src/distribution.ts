import { z } from 'zod';
import { isoDateTime } from './dates.js';
import type { MaybePending } from './identity.js';
import { LINK_MESSAGES, LINK_PIN_PATTERN, type LinkState } from './links.js';
import type { TicketDistribution } from './tickets.js';
import { schema } from './schema.js';
import { hasForbiddenCharacters, notAllowedMessage } from './text.js';

/** Tickets one distribute request may carry. */
export const MAX_DISTRIBUTE_TICKETS = 1000;
/** docs/reference.md "Limits and constants": the earliest link expiry is one hour from now. */
export const MIN_LINK_EXPIRY_MS = 60 * 60 * 1000;
/** The latest link expiry: five years ahead (a date past it is a typo, not a plan). */
export const MAX_LINK_EXPIRY_MS = 5 * 366 * 24 * 60 * 60 * 1000;
/** The largest click limit a link takes. */
export const MAX_LINK_CLICKS = 1_000_000;
/** The longest label of a link ("for Sam"), in characters. */
export const MAX_LINK_LABEL = 80;

export const DISTRIBUTION_MESSAGES = {
  noTickets: 'No valid tickets selected to distribute',
  expiryTooSoon: 'Link expiry must be at least one hour from now',
  expiryTooLate: 'Link expiry must be within five years',
  expiryInvalid: 'Link expiry must be a date and time',
  maxClicks: `Max clicks must be a whole number from 1 to ${MAX_LINK_CLICKS}, or null for unlimited`,
  recalled: 'Ticket recalled',
  labelTooLong: `Label must be at most ${MAX_LINK_LABEL} characters`,
  labelNotText: 'Label must be text, or null for none',
  nothingToUpdate: 'Nothing to update: give expiry_date, max_clicks, label or pin',
  limitBelowClicks: (clicks: number) =>
    `Max clicks cannot be lower than the ${clicks} ${clicks === 1 ? 'click' : 'clicks'} already counted`,
  updated: 'Link updated',
  pinFormat: 'PIN must be 4 to 8 digits, or null for none',
} as const;

/**
 * POST /v1/links/{code}/claim's body, all optional: `pin` for a link that has one (4 to 8 digits; empty or null is
 * none). Anything else in a body is ignored, as is a body that is not an object.
 */
export const claimRequestSchema = schema(() =>
  z.looseObject({
    pin: z
      .union([z.string().regex(LINK_PIN_PATTERN, LINK_MESSAGES.pinFormat), z.literal(''), z.null()], {
        error: LINK_MESSAGES.pinFormat,
      })
      .optional(),
  }),
);

/** Why a ticket was not distributed, or a link not recalled or claimed (the `code` of a refusal). */
export const DISTRIBUTION_ERROR_CODES = [
  'TICKET_NOT_FOUND',
  'ALREADY_DISTRIBUTED',
  'DUPLICATE_TICKET',
  'INSUFFICIENT_CREDITS',
  'DISTRIBUTION_NOT_FOUND',
  'ALREADY_RECALLED',
  /** Paid for, then not made (the database went away, or another request took the ticket): its credits came back. */
  'LINK_NOT_MADE',
  /** An edit would set a link's click limit below the clicks it has already counted. */
  'LIMIT_BELOW_CLICKS',
] as const;
export type DistributionErrorCode = (typeof DISTRIBUTION_ERROR_CODES)[number];

/**
 * A link's expiry as a body gives it: a date and time that exists. How far ahead it is (MIN_LINK_EXPIRY_MS to
 * MAX_LINK_EXPIRY_MS) the server judges by the database's clock, the one time every process shares.
 */
const expiryDate = schema(() =>
  isoDateTime({
    invalid: DISTRIBUTION_MESSAGES.expiryInvalid,
    outOfRange: DISTRIBUTION_MESSAGES.expiryTooLate,
  }),
);

const maxClicks = schema(() =>
  z
    .number({ error: DISTRIBUTION_MESSAGES.maxClicks })
    .int(DISTRIBUTION_MESSAGES.maxClicks)
    .min(1, DISTRIBUTION_MESSAGES.maxClicks)
    .max(MAX_LINK_CLICKS, DISTRIBUTION_MESSAGES.maxClicks),
);

/**
 * A link's label ("for Sam"): trimmed, at most MAX_LINK_LABEL characters (code points: an emoji is one), no control or
 * bidi-override characters; empty is none (null).
 */
export const linkLabelSchema = schema(() =>
  z
    .string({ error: DISTRIBUTION_MESSAGES.labelNotText })
    .trim()
    .refine((value) => [...value].length <= MAX_LINK_LABEL, DISTRIBUTION_MESSAGES.labelTooLong)
    .refine((value) => !hasForbiddenCharacters(value), notAllowedMessage('Label'))
    .transform((value) => (value === '' ? null : value)),
);

/** A link's PIN, as its owner sets it: 4 to 8 digits (kept only as a hash, never shown again). */
export const linkPinSchema = schema(() =>
  z.string({ error: DISTRIBUTION_MESSAGES.pinFormat }).regex(LINK_PIN_PATTERN, DISTRIBUTION_MESSAGES.pinFormat),
);

const unknownFields = {
  error: (issue: { code?: string; keys?: string[] }) =>
    issue.code === 'unrecognized_keys' ? `Unknown field: ${(issue.keys ?? []).join(', ')}` : undefined,
};

/**
 * POST /v1/tickets/distribute (docs/reference.md "API calls"). `expiry_date` null or absent: the link does not expire
 * by time (a minute of grace under the hour for the time the request takes); `max_clicks` null or absent: unlimited.
 */
export const distributeRequestSchema = schema(() =>
  // Strict, as the edits are: a misspelt setting (`expires_at`, `maxClicks`) is refused, never charged for as a link
  // without it.
  z.strictObject(
    {
      ticket_ids: z
        .array(z.uuid({ error: 'Each ticket id must be a UUID' }), { error: DISTRIBUTION_MESSAGES.noTickets })
        .min(1, DISTRIBUTION_MESSAGES.noTickets)
        .max(MAX_DISTRIBUTE_TICKETS, `At most ${MAX_DISTRIBUTE_TICKETS} tickets at once`)
        .refine((ids) => new Set(ids).size === ids.length, 'A ticket is listed twice'),
      expiry_date: expiryDate.nullish().transform((value) => value ?? null),
      max_clicks: maxClicks.nullish().transform((value) => value ?? null),
      /** The same label on every link the request makes. */
      label: linkLabelSchema.nullish().transform((value) => value ?? null),
      /** The same PIN on every link the request makes. */
      pin: linkPinSchema.nullish().transform((value) => value ?? null),
    },
    unknownFields,
  ),
);
export type DistributeRequest = z.input<typeof distributeRequestSchema>;
export type DistributeCommandInput = z.output<typeof distributeRequestSchema>;

/** A link of the distribute answer (docs/reference.md "Request and answer bodies"): one per ticket that got a link. */
export interface DistributionResult {
  ticket_id: string;
  distribution_id: string;
  link: string;
}

/** A ticket of the request that got no link, and why. */
export interface DistributionFailure {
  ticket_id: string;
  code: DistributionErrorCode;
  message: string;
}

export interface DistributeResponse extends MaybePending {
  distributions: DistributionResult[];
  failed: DistributionFailure[];
  /** The balance after the request. */
  balance: number;
}

export const distributionIdParamSchema = schema(() => z.uuid({ error: 'Distribution id must be a UUID' }));

/**
 * PATCH /v1/distributions/{id}: a live link's settings, changed without recalling it or paying again. Each field absent
 * is left as it is; null removes it (no expiry, no click limit, no label). A click limit may not go below the clicks
 * already counted. Unknown fields are refused, so a misspelt one is never silently ignored.
 */
/** What a link edit may change (PATCH one link, or many). */
const linkChangeFields = () => ({
  expiry_date: expiryDate.nullable().optional(),
  max_clicks: maxClicks.nullable().optional(),
  label: linkLabelSchema.nullable().optional(),
  pin: linkPinSchema.nullable().optional(),
});

const changesSomething = (body: { expiry_date?: unknown; max_clicks?: unknown; label?: unknown; pin?: unknown }) =>
  body.expiry_date !== undefined || body.max_clicks !== undefined || body.label !== undefined || body.pin !== undefined;

export const updateDistributionRequestSchema = schema(() =>
  z.strictObject(linkChangeFields(), unknownFields).refine(changesSomething, DISTRIBUTION_MESSAGES.nothingToUpdate),
);
export type UpdateDistributionRequest = z.input<typeof updateDistributionRequestSchema>;
export type UpdateDistributionInput = z.output<typeof updateDistributionRequestSchema>;

/** PATCH /v1/distributions/{id}: the link as it is now. */
export interface UpdateDistributionResponse extends MaybePending {
  message: string;
  ticket_id: string;
  state: LinkState;
  distribution: TicketDistribution;
}

/** POST /v1/distributions/{id}/recall. */
export interface RecallResponse extends MaybePending {
  message: string;
  distribution_id: string;
  ticket_id: string;
}

/** Links one bulk recall or edit takes at most. */
export const MAX_BULK_LINKS = 1000;

const distributionIds = () =>
  z
    .array(z.uuid({ error: 'Each distribution id must be a UUID' }), { error: BULK_LINK_MESSAGES.noLinks })
    .min(1, BULK_LINK_MESSAGES.noLinks)
    .max(MAX_BULK_LINKS, `At most ${MAX_BULK_LINKS} links at once`)
    .refine((ids) => new Set(ids).size === ids.length, 'A link is listed twice');

export const BULK_LINK_MESSAGES = {
  noLinks: 'No links selected',
  recalled: (n: number) => `${n} ${n === 1 ? 'link' : 'links'} recalled`,
  updated: (n: number) => `${n} ${n === 1 ? 'link' : 'links'} updated`,
} as const;

/** POST /v1/distributions/recall: recalls many of the caller's links; each is recalled or refused on its own. */
export const bulkRecallRequestSchema = schema(() =>
  z.strictObject({ distribution_ids: distributionIds() }, unknownFields),
);
export type BulkRecallRequest = z.input<typeof bulkRecallRequestSchema>;

/** PATCH /v1/distributions: the same changes (as PATCH /v1/distributions/{id}) to many links, each on its own. */
export const bulkUpdateRequestSchema = schema(() =>
  z
    .strictObject({ distribution_ids: distributionIds(), ...linkChangeFields() }, unknownFields)
    .refine(changesSomething, DISTRIBUTION_MESSAGES.nothingToUpdate),
);
export type BulkUpdateRequest = z.input<typeof bulkUpdateRequestSchema>;
export type BulkUpdateInput = z.output<typeof bulkUpdateRequestSchema>;

/** A link of a bulk request that was refused, and why (the code and message a request for it alone would get). */
export interface BulkLinkFailure {
  distribution_id: string;
  code: string;
  message: string;
}

export interface BulkRecallResponse extends MaybePending {
  message: string;
  recalled: Array<{ distribution_id: string; ticket_id: string }>;
  failed: BulkLinkFailure[];
}

export interface BulkUpdateResponse extends MaybePending {
  message: string;
  updated: Array<{ ticket_id: string; state: LinkState; distribution: TicketDistribution }>;
  failed: BulkLinkFailure[];
}

// ---- Public links (their states and the recipient's answers: links.ts) ---------------------------------------------

/** A link code: 22 characters of base64url (128 random bits). */
export const linkCodeParamSchema = schema(() => z.string().regex(/^[A-Za-z0-9_-]{22}$/, { error: 'Not a link code' }));

/** GET /v1/distributions/{id}/clicks: a link's counted clicks per minute (its owner's, or any for admins). */
export interface ClickTimelineResponse {
  distribution_id: string;
  /** The link's label ("for Sam"); null for none. */
  label: string | null;
  clicks: number;
  max_clicks: number | null;
  /** Minutes with at least one click, oldest first (at most the last 1,440 such minutes). */
  minutes: Array<{ minute: string; clicks: number }>;
}

/** GET /v1/links/export.csv: rows one export of a user's links holds at most. */
export const MAX_LINK_EXPORT_ROWS = 100_000;
