import { z } from 'zod';
import { isoDateTime } from './dates.js';
import { maybePendingShape } from './identity.js';
import {
  LINK_DEVICE_ID_PATTERN,
  LINK_MESSAGES,
  LINK_PIN_PATTERN,
  LINK_PIN_STATES,
  LINK_REFERRER_PATTERN,
  LINK_STATES,
} from './links.js';
import { ticketDistributionSchema } from './tickets.js';
import { named, schema, timestampSchema } from './schema.js';
import { hasForbiddenCharacters, notAllowedMessage } from './text.js';
import {
  bulkRecipientSchema,
  checkRecipientsListed,
  distributeRecipientSchema,
  RECIPIENT_MESSAGES,
  recipientChangeSchema,
} from './recipients.js';

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
/** The longest name a recipient gives when claiming ("Sam"), in characters. */
export const MAX_CLAIMANT_NAME = 60;

export const DISTRIBUTION_MESSAGES = {
  noTickets: 'No valid tickets selected to distribute',
  expiryTooSoon: 'Link expiry must be at least one hour from now',
  expiryTooLate: 'Link expiry must be within five years',
  expiryInvalid: 'Link expiry must be a date and time',
  maxClicks: `Max clicks must be a whole number from 1 to ${MAX_LINK_CLICKS}, or null for unlimited`,
  recalled: 'Ticket recalled',
  labelTooLong: `Label must be at most ${MAX_LINK_LABEL} characters`,
  labelNotText: 'Label must be text, or null for none',
  nothingToUpdate: 'Nothing to update: give expiry_date, max_clicks, label, pin or recipient',
  nothingToUpdateMany: 'Nothing to update: give expiry_date, max_clicks, label, pin or recipients',
  limitBelowClicks: (clicks: number) =>
    `Max clicks cannot be lower than the ${clicks} ${clicks === 1 ? 'click' : 'clicks'} already counted`,
  updated: 'Link updated',
  pinFormat: 'PIN must be 4 to 8 digits, or null for none',
} as const;

/**
 * The name a recipient gives when claiming: trimmed, at most MAX_CLAIMANT_NAME characters (code points), no control
 * or bidi-override characters (it is shown to the link's owner and sent to their systems); empty is none (null).
 */
export const claimantNameSchema = schema(() =>
  z
    .string({ error: LINK_MESSAGES.nameFormat })
    .trim()
    .refine((value) => [...value].length <= MAX_CLAIMANT_NAME, LINK_MESSAGES.nameFormat)
    .refine((value) => !hasForbiddenCharacters(value), LINK_MESSAGES.nameFormat)
    .transform((value) => (value === '' ? null : value)),
);

/**
 * POST /v1/links/{code}/claim's body, all optional: `pin` for a link that has one (4 to 8 digits; empty or null is
 * none), and `device_id`, an id the claim page keeps for the browser: PINs are slowed per device and per address, so
 * a device that sends one is not slowed by another's wrong PINs (none: judged by its address only). Anything else in a
 * body is ignored, as is a body that is not an object.
 */
export const claimRequestSchema = schema(() =>
  z.looseObject({
    pin: z
      .union([z.string().regex(LINK_PIN_PATTERN, LINK_MESSAGES.pinFormat), z.literal(''), z.null()], {
        error: LINK_MESSAGES.pinFormat,
      })
      .optional(),
    device_id: z
      .union([z.string().regex(LINK_DEVICE_ID_PATTERN, LINK_MESSAGES.deviceFormat), z.null()], {
        error: LINK_MESSAGES.deviceFormat,
      })
      .optional(),
    /** The recipient's name, for the link's owner to see ("claimed by Sam"); empty or null is none. */
    name: claimantNameSchema.nullish().transform((value) => value ?? null),
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
  z
    .strictObject(
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
        /**
         * Whom some of the links are for, at most one entry per ticket of `ticket_ids`: a name, an e-mail (Seatlink mails
         * the link there), or both. A ticket without an entry gets a link for nobody named.
         */
        recipients: z
          .array(distributeRecipientSchema, { error: RECIPIENT_MESSAGES.notObject })
          .max(MAX_DISTRIBUTE_TICKETS, RECIPIENT_MESSAGES.tooMany)
          .nullish()
          .transform((value) => value ?? []),
      },
      unknownFields,
    )
    .superRefine((body, ctx) => checkRecipientsListed(body.ticket_ids, body.recipients, 'ticket_id', ctx)),
);
export type DistributeRequest = z.input<typeof distributeRequestSchema>;
export type DistributeCommandInput = z.output<typeof distributeRequestSchema>;

/** A link of the distribute answer (docs/reference.md "Request and answer bodies"): one per ticket that got a link. */
export const distributionResultSchema = schema(() =>
  named(
    'DistributionResult',
    z.object({
      ticket_id: z.uuid(),
      distribution_id: z.uuid(),
      /** The link's address: the recipient page of its code. */
      link: z.url(),
    }),
  ),
);
export type DistributionResult = z.infer<typeof distributionResultSchema>;

/** A ticket of the request that got no link, and why. */
export const distributionFailureSchema = schema(() =>
  named(
    'DistributionFailure',
    z.object({ ticket_id: z.uuid(), code: z.enum(DISTRIBUTION_ERROR_CODES), message: z.string() }),
  ),
);
export type DistributionFailure = z.infer<typeof distributionFailureSchema>;

/** POST /v1/tickets/distribute: the links made, the tickets refused, and the balance. */
export const distributeResponseSchema = schema(() =>
  named(
    'DistributeResponse',
    z.object({
      distributions: z.array(distributionResultSchema),
      failed: z.array(distributionFailureSchema),
      /** The balance after the request. */
      balance: z.int(),
      ...maybePendingShape,
    }),
  ),
);
export type DistributeResponse = z.infer<typeof distributeResponseSchema>;

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

const changesSomething = (body: {
  expiry_date?: unknown;
  max_clicks?: unknown;
  label?: unknown;
  pin?: unknown;
  recipient?: unknown;
  recipients?: readonly unknown[];
}) =>
  body.expiry_date !== undefined ||
  body.max_clicks !== undefined ||
  body.label !== undefined ||
  body.pin !== undefined ||
  body.recipient !== undefined ||
  (body.recipients?.length ?? 0) > 0;

/** A link edit of one link may also name its recipient (`{ name?, email? }`; null removes it). */
export const updateDistributionRequestSchema = schema(() =>
  z
    .strictObject({ ...linkChangeFields(), recipient: recipientChangeSchema.optional() }, unknownFields)
    .refine(changesSomething, DISTRIBUTION_MESSAGES.nothingToUpdate),
);
export type UpdateDistributionRequest = z.input<typeof updateDistributionRequestSchema>;
export type UpdateDistributionInput = z.output<typeof updateDistributionRequestSchema>;

/** A link after an edit: its ticket, its state as claims now see it, and the link as the owner's views show it. */
export const editedLinkSchema = schema(() =>
  named(
    'EditedLink',
    z.object({ ticket_id: z.uuid(), state: z.enum(LINK_STATES), distribution: ticketDistributionSchema }),
  ),
);
export type EditedLink = z.infer<typeof editedLinkSchema>;

/** PATCH /v1/distributions/{id}: the link as it is now. */
export const updateDistributionResponseSchema = schema(() =>
  named('UpdateDistributionResponse', editedLinkSchema.extend({ message: z.string(), ...maybePendingShape })),
);
export type UpdateDistributionResponse = z.infer<typeof updateDistributionResponseSchema>;

/** A recalled link and its ticket. */
export const recalledLinkSchema = schema(() =>
  named('RecalledLink', z.object({ distribution_id: z.uuid(), ticket_id: z.uuid() })),
);
export type RecalledLink = z.infer<typeof recalledLinkSchema>;

/** POST /v1/distributions/{id}/recall. */
export const recallResponseSchema = schema(() =>
  named('RecallResponse', recalledLinkSchema.extend({ message: z.string(), ...maybePendingShape })),
);
export type RecallResponse = z.infer<typeof recallResponseSchema>;

/** Links one bulk recall or edit takes at most. */
export const MAX_BULK_LINKS = 1000;

const distributionIds = () =>
  z
    .array(z.uuid({ error: 'Each distribution id must be a UUID' }), { error: BULK_LINK_MESSAGES.noLinks })
    .min(1, BULK_LINK_MESSAGES.noLinks)
    .max(MAX_BULK_LINKS, `At most ${MAX_BULK_LINKS} links at once`)
    .refine((ids) => new Set(ids).size === ids.length, 'A link is listed twice');

/** "1 link", "1,000 links": a count of links as the answers and toasts say it (grouped in thousands). */
const linksCount = (n: number) => `${n.toLocaleString('en-GB')} ${n === 1 ? 'link' : 'links'}`;

export const BULK_LINK_MESSAGES = {
  noLinks: 'No links selected',
  recalled: (n: number) => `${linksCount(n)} recalled`,
  updated: (n: number) => `${linksCount(n)} updated`,
} as const;

/** POST /v1/distributions/recall: recalls many of the caller's links; each is recalled or refused on its own. */
export const bulkRecallRequestSchema = schema(() =>
  z.strictObject({ distribution_ids: distributionIds() }, unknownFields),
);
export type BulkRecallRequest = z.input<typeof bulkRecallRequestSchema>;

/**
 * PATCH /v1/distributions: the same changes (as PATCH /v1/distributions/{id}) to many links, each on its own, and
 * whom each of some of them is for (`recipients`, one entry per listed link; a link without one keeps its recipient).
 */
export const bulkUpdateRequestSchema = schema(() =>
  z
    .strictObject(
      {
        distribution_ids: distributionIds(),
        ...linkChangeFields(),
        /**
         * Whom some of the links are for, at most one entry per link of `distribution_ids`: a name, an e-mail, or both
         * (Seatlink mails the link to a new address); an entry with neither removes the link's recipient.
         */
        recipients: z
          .array(bulkRecipientSchema, { error: RECIPIENT_MESSAGES.notObject })
          .max(MAX_BULK_LINKS, RECIPIENT_MESSAGES.tooManyLinks)
          .optional(),
      },
      unknownFields,
    )
    .refine(changesSomething, DISTRIBUTION_MESSAGES.nothingToUpdateMany)
    .superRefine((body, ctx) =>
      checkRecipientsListed(body.distribution_ids, body.recipients ?? [], 'distribution_id', ctx),
    ),
);
export type BulkUpdateRequest = z.input<typeof bulkUpdateRequestSchema>;
export type BulkUpdateInput = z.output<typeof bulkUpdateRequestSchema>;

/** A link of a bulk request that was refused, and why (the code and message a request for it alone would get). */
export const bulkLinkFailureSchema = schema(() =>
  named('BulkLinkFailure', z.object({ distribution_id: z.uuid(), code: z.string(), message: z.string() })),
);
export type BulkLinkFailure = z.infer<typeof bulkLinkFailureSchema>;

/** POST /v1/distributions/recall: the links recalled, and those refused with why, in the request's order. */
export const bulkRecallResponseSchema = schema(() =>
  named(
    'BulkRecallResponse',
    z.object({
      message: z.string(),
      recalled: z.array(recalledLinkSchema),
      failed: z.array(bulkLinkFailureSchema),
      ...maybePendingShape,
    }),
  ),
);
export type BulkRecallResponse = z.infer<typeof bulkRecallResponseSchema>;

/** PATCH /v1/distributions: the links edited (as they are now), and those refused with why, in the request's order. */
export const bulkUpdateResponseSchema = schema(() =>
  named(
    'BulkUpdateResponse',
    z.object({
      message: z.string(),
      updated: z.array(editedLinkSchema),
      failed: z.array(bulkLinkFailureSchema),
      ...maybePendingShape,
    }),
  ),
);
export type BulkUpdateResponse = z.infer<typeof bulkUpdateResponseSchema>;

// ---- Public links (their states and the recipient's answers: links.ts) ---------------------------------------------

/** A link code: 22 characters of base64url (128 random bits). */
export const linkCodeParamSchema = schema(() => z.string().regex(/^[A-Za-z0-9_-]{22}$/, { error: 'Not a link code' }));

/** A minute of a link's click timeline and the clicks counted in it. */
export const clickMinuteSchema = schema(() =>
  named(
    'ClickMinute',
    z.object({
      /** The minute's start. */
      minute: timestampSchema,
      clicks: z.int().min(1),
    }),
  ),
);
export type ClickMinute = z.infer<typeof clickMinuteSchema>;

/** A minute of a link's open timeline and the devices that first opened it in it. */
export const openMinuteSchema = schema(() =>
  named(
    'OpenMinute',
    z.object({
      /** The minute's start. */
      minute: timestampSchema,
      opens: z.int().min(1),
    }),
  ),
);
export type OpenMinute = z.infer<typeof openMinuteSchema>;

/** GET /v1/distributions/{id}/clicks: a link's counted clicks per minute (its owner's, or any for admins). */
export const clickTimelineResponseSchema = schema(() =>
  named(
    'ClickTimelineResponse',
    z.object({
      distribution_id: z.uuid(),
      /** The link's label ("for Sam"); null for none. */
      label: z.string().nullable(),
      clicks: z.int().min(0),
      max_clicks: z.int().min(1).nullable(),
      /** Minutes with at least one click, oldest first (at most the last 1,440 such minutes). */
      minutes: z.array(clickMinuteSchema),
      /** Distinct devices that opened the recipient page (bots and link previews left out). */
      opens: z.int().min(0),
      /** Minutes with at least one first open by a device, oldest first (at most the last 1,440 such minutes). */
      open_minutes: z.array(openMinuteSchema),
    }),
  ),
);
export type ClickTimelineResponse = z.infer<typeof clickTimelineResponseSchema>;

/** The ticket of a shared link, as its recipient sees it. */
export const publicLinkTicketSchema = schema(() =>
  named(
    'PublicLinkTicket',
    z.object({
      /** Its title; a fixed text when the ticket has left its owner's wallet. */
      title: z.string(),
      subtitle: z.string().nullable(),
      logo: z.string().nullable(),
      venue_name: z.string().nullable(),
      /** "Section 112, Row F, Seat 7", or null when the pass has no seat. */
      seat_info: z.string().nullable(),
      next_game: z.string().nullable(),
      next_game_date: z.string().nullable(),
    }),
  ),
);
export type PublicLinkTicket = z.infer<typeof publicLinkTicketSchema>;

/** GET /v1/links/{code}: what a recipient sees before claiming (never counts a click). Its type: links.ts. */
export const publicLinkSchema = schema(() =>
  named(
    'PublicLink',
    z.object({
      state: z.enum(LINK_STATES),
      /**
       * Whether "Add to wallet" needs the link's PIN (sent as `{ pin }` with the claim); `none` unless it is active.
       * `locked` is answered no more.
       */
      pin: z.enum(LINK_PIN_STATES),
      expires_at: timestampSchema.nullable(),
      ticket: publicLinkTicketSchema,
    }),
  ),
);
export type PublicLink = z.infer<typeof publicLinkSchema>;

/** POST /v1/links/{code}/claim: one counted click. */
export const claimResponseSchema = schema(() =>
  named(
    'ClaimResponse',
    z.object({
      /** Where to save the pass to a wallet. */
      wallet_url: z.url(),
    }),
  ),
);
export type ClaimResponse = z.infer<typeof claimResponseSchema>;

/** GET /v1/links/export.csv: rows one export of a user's links holds at most. */
export const MAX_LINK_EXPORT_ROWS = 100_000;

// ---- Opens of links and the activity of a holder's links ----------------------------------------------------------

/**
 * POST /v1/links/{code}/opens's body: the device id the recipient page keeps in the browser (an open is counted once
 * per link and device) and where the recipient came from — the referring site's host name, or a `?ref=` /
 * `utm_source` token (lower-cased; empty or null: not known). Anything else in the object is ignored.
 */
export const linkOpenRequestSchema = schema(() =>
  named(
    'LinkOpenRequest',
    z.looseObject(
      {
        device_id: z
          .string({ error: LINK_MESSAGES.deviceFormat })
          .regex(LINK_DEVICE_ID_PATTERN, LINK_MESSAGES.deviceFormat),
        referrer: z
          .union([z.string().regex(LINK_REFERRER_PATTERN, LINK_MESSAGES.referrerFormat), z.literal(''), z.null()], {
            error: LINK_MESSAGES.referrerFormat,
          })
          .optional()
          .transform((value) => (value ? value.toLowerCase() : null)),
      },
      { error: LINK_MESSAGES.openBody },
    ),
  ),
);
export type LinkOpenRequest = z.input<typeof linkOpenRequestSchema>;

/**
 * POST /v1/links/{code}/opens's answer: `counted` is true when this was the device's first open of the link (recorded
 * for its owner); false for a device that opened it before, a bot or link preview, or a withdrawn link.
 */
export const linkOpenResponseSchema = schema(() => named('LinkOpenResponse', z.object({ counted: z.boolean() })));
export type LinkOpenResponse = z.infer<typeof linkOpenResponseSchema>;

/** Days of link activity answered at most (and by default). */
export const MAX_ACTIVITY_DAYS = 90;
export const DEFAULT_ACTIVITY_DAYS = 30;
/** Links listed at most under "Opened, not claimed" and "Expiring unclaimed". */
export const ACTIVITY_LIST_SIZE = 20;
/** "Expiring unclaimed": live links without a claim whose expiry is within this many hours. */
export const EXPIRING_WITHIN_HOURS = 24;

/** GET /v1/links/activity's query: how many days back (1 to 90; 30 by default). */
export const linkActivityQuerySchema = schema(() =>
  z
    .object({
      days: z.coerce
        .number({ error: `days must be a whole number from 1 to ${MAX_ACTIVITY_DAYS}` })
        .int(`days must be a whole number from 1 to ${MAX_ACTIVITY_DAYS}`)
        .min(1, `days must be a whole number from 1 to ${MAX_ACTIVITY_DAYS}`)
        .max(MAX_ACTIVITY_DAYS, `days must be a whole number from 1 to ${MAX_ACTIVITY_DAYS}`)
        .default(DEFAULT_ACTIVITY_DAYS),
    })
    .strict(),
);
export type LinkActivityQuery = z.infer<typeof linkActivityQuerySchema>;

/** One day (UTC) of a holder's links: the devices that first opened one, and the claims counted. */
export const linkActivityDaySchema = schema(() =>
  named(
    'LinkActivityDay',
    z.object({
      /** The day, YYYY-MM-DD (UTC). */
      day: z.iso.date(),
      opens: z.int().min(0),
      claims: z.int().min(0),
    }),
  ),
);
export type LinkActivityDay = z.infer<typeof linkActivityDaySchema>;

/** A live link that was opened and never claimed. */
export const openedNotClaimedLinkSchema = schema(() =>
  named(
    'OpenedNotClaimedLink',
    z.object({
      distribution_id: z.uuid(),
      ticket_id: z.uuid(),
      /** Its ticket's title; null once the ticket has left the holder's wallets. */
      title: z.string().nullable(),
      label: z.string().nullable(),
      /** Distinct devices that opened it. */
      opens: z.int().min(1),
      last_open_at: timestampSchema,
    }),
  ),
);
export type OpenedNotClaimedLink = z.infer<typeof openedNotClaimedLinkSchema>;

/** A live link without a claim that expires within EXPIRING_WITHIN_HOURS. */
export const expiringUnclaimedLinkSchema = schema(() =>
  named(
    'ExpiringUnclaimedLink',
    z.object({
      distribution_id: z.uuid(),
      ticket_id: z.uuid(),
      title: z.string().nullable(),
      label: z.string().nullable(),
      expires_at: timestampSchema,
    }),
  ),
);
export type ExpiringUnclaimedLink = z.infer<typeof expiringUnclaimedLinkSchema>;

/**
 * GET /v1/links/activity: the holder's links over the last `days` days — opens (distinct devices) and claims per day,
 * oldest first, every day present — the live links opened and not claimed (most opened first) and the live links
 * expiring unclaimed (soonest first), at most ACTIVITY_LIST_SIZE each.
 */
export const linkActivityResponseSchema = schema(() =>
  named(
    'LinkActivityResponse',
    z.object({
      days: z.array(linkActivityDaySchema),
      opened_not_claimed: z.array(openedNotClaimedLinkSchema),
      expiring_unclaimed: z.array(expiringUnclaimedLinkSchema),
    }),
  ),
);
export type LinkActivityResponse = z.infer<typeof linkActivityResponseSchema>;

/** The dashboard's "Link activity" page. */
export const LINK_ACTIVITY_TEXTS = {
  title: 'Link activity',
  intro: 'Who opened your links and who claimed them. An open is one device; bots and link previews are left out.',
  chartTitle: 'Opens and claims by day',
  opens: 'Opens',
  claims: 'Claims',
  noActivity: 'No opens or claims in this period.',
  openedNotClaimed: 'Opened, not claimed',
  openedNotClaimedEmpty: 'Every link that was opened has been claimed.',
  expiringUnclaimed: 'Expiring unclaimed',
  expiringUnclaimedEmpty: 'No unclaimed link expires within 24 hours.',
  opensCount: (n: number) => `${n} ${n === 1 ? 'open' : 'opens'}`,
  loadFailed: 'Link activity could not be loaded.',
} as const;
