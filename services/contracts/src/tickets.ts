import { z } from 'zod';
import { linkRecipientSchema } from './recipients.js';
import { named, schema, timestampSchema } from './schema.js';

/** A ticket's display status (docs/reference.md "Ticket"): 0 not distributed, 1 distributed, 2 duplicate. */
export const TICKET_STATUS = { notDistributed: 0, distributed: 1, duplicate: 2 } as const;

export const ticketSeatSchema = schema(() =>
  named(
    'TicketSeat',
    z.object({
      section: z.string().nullable(),
      row: z.string().nullable(),
      seat: z.string().nullable(),
      /** "Section 112, Row F, Seat 7", or null when the pass has no seat. */
      seat_info_combined: z.string().nullable(),
    }),
  ),
);
export type TicketSeat = z.infer<typeof ticketSeatSchema>;

/** Who made a link's last click: the name they gave (null: none) and their device ("iPhone"; null: not known). */
export const linkClaimantSchema = schema(() =>
  named(
    'LinkClaimant',
    z.object({
      name: z.string().nullable(),
      device: z.string().nullable(),
      at: timestampSchema,
    }),
  ),
);
export type LinkClaimant = z.infer<typeof linkClaimantSchema>;

/** A distribution link (docs/reference.md "Link"): filled in by the distribution feature. */
export const ticketDistributionSchema = schema(() =>
  named(
    'TicketDistribution',
    z.object({
      /** The link's id, as every other call and event names it. */
      distribution_id: z.uuid(),
      /** The same as `distribution_id`: its first name, kept for one version. */
      id: z.uuid().meta({ deprecated: true, description: 'Deprecated: use distribution_id (the same value).' }),
      link: z.url(),
      clicks: z.int().min(0),
      max_clicks: z.int().min(1).nullable(),
      expiry: timestampSchema.nullable(),
      /** Its owner's note of whom it is for ("for Sam"); null for none. */
      label: z.string().nullable(),
      /** A recipient must enter its PIN before "Add to wallet". */
      has_pin: z.boolean(),
      pin_locked: z.boolean().meta({
        deprecated: true,
        description:
          'Deprecated: always false. Links are no longer locked after wrong PINs (PINs are slowed per device and address).',
      }),
      /** Who made its last click; null before the first. */
      claimed_by: linkClaimantSchema.nullable(),
      /** Whom the link is for (its name, its e-mail: Seatlink mails them the link); null for nobody named. */
      recipient: linkRecipientSchema.nullable(),
    }),
  ),
);
export type TicketDistribution = z.infer<typeof ticketDistributionSchema>;

/** docs/reference.md "Ticket". */
export const ticketSchema = schema(() =>
  named(
    'Ticket',
    z.object({
      id: z.uuid(),
      account_id: z.uuid(),
      account_email: z.string(),
      title: z.string(),
      subtitle: z.string().nullable(),
      logo: z.string().nullable(),
      venue_name: z.string().nullable(),
      seat: ticketSeatSchema,
      metadata: z.object({ next_game: z.string().nullable(), next_game_date: z.string().nullable() }),
      is_duplicate: z.boolean(),
      is_distributed: z.boolean(),
      distribution: ticketDistributionSchema.nullable(),
      /** When the product first saw the ticket. */
      created_at: timestampSchema,
    }),
  ),
);
export type Ticket = z.infer<typeof ticketSchema>;

/** Tickets of one page at most (GET /v1/tickets?limit=). */
export const MAX_TICKETS_PAGE = 2000;

/** A version of a user's tickets: a decimal number, as a string (it may outgrow a double). */
const ticketsVersion = schema(() =>
  z.string().regex(/^(0|[1-9][0-9]{0,17})$/, 'since must be a version this call answered (a whole number)'),
);

/**
 * GET /v1/tickets query. Without parameters the answer is every ticket (docs/reference.md "API calls"), with the
 * version it stands at.
 * - `limit` (1–MAX_TICKETS_PAGE) pages it in first-seen order; `after` is the `next_cursor` of the page before.
 * - `since` (a `version` an earlier answer gave) answers only the tickets that changed after it (a new or changed
 *   ticket, its link made, clicked or recalled, its duplicate status) and the ids of those that left (`removed`). A
 *   version too old to answer by changes (the read models were rebuilt since) answers `full: true` and every ticket.
 * - A client that pages keeps the first page's `version` and, once the pages are in, asks `since` it: what changed
 *   while it paged.
 */
export const ticketsQuerySchema = schema(() =>
  z
    .object({
      limit: z.coerce.number().int().min(1).max(MAX_TICKETS_PAGE).optional(),
      after: z
        .string()
        .max(200)
        .regex(/^[A-Za-z0-9_-]+$/, 'after must be the next_cursor of the page before')
        .optional(),
      since: ticketsVersion.optional(),
    })
    .strict()
    .refine((q) => q.after === undefined || q.limit !== undefined, {
      message: 'after needs limit',
      path: ['after'],
    }),
);
export type TicketsQuery = z.infer<typeof ticketsQuerySchema>;

export const ticketsResponseSchema = schema(() =>
  named(
    'TicketsResponse',
    z.object({
      tickets: z.array(ticketSchema),
      /** The version this answer stands at: pass it as `since` to get only what changed after it. */
      version: z.string().regex(/^[0-9]+$/),
      /** With `limit`: the cursor of the next page, or null on the last page. */
      next_cursor: z.string().nullable().optional(),
      /** With `since`: ids of the tickets that left after that version (a ticket gone from its wallet, an account deleted). */
      removed: z.array(z.uuid()).optional(),
      /** With `since`: the version was too old to answer by changes, so `tickets` holds every ticket (paged as asked). */
      full: z.boolean().optional(),
    }),
  ),
);
export type TicketsResponse = z.infer<typeof ticketsResponseSchema>;

/** GET /v1/admin/tickets: every user's tickets, with the owner. */
export const adminTicketSchema = schema(() =>
  named('AdminTicket', ticketSchema.extend({ user: z.object({ id: z.uuid(), email: z.string() }) })),
);
export type AdminTicket = z.infer<typeof adminTicketSchema>;
export const adminTicketsResponseSchema = schema(() =>
  named('AdminTicketsResponse', z.object({ tickets: z.array(adminTicketSchema) })),
);
export type AdminTicketsResponse = z.infer<typeof adminTicketsResponseSchema>;

/** docs/reference.md "Duplicate group": one ticket of a pass kept (the master), the others duplicates. */
export const duplicateTicketViewSchema = schema(() =>
  named(
    'DuplicateTicketView',
    z.object({
      id: z.uuid(),
      title: z.string(),
      venue_name: z.string().nullable(),
      seat_info: z.string().nullable(),
      created_at: timestampSchema,
      account: z.object({ email: z.string() }),
      user: z.object({ email: z.string() }),
    }),
  ),
);
export type DuplicateTicketView = z.infer<typeof duplicateTicketViewSchema>;
export const duplicateGroupSchema = schema(() =>
  named(
    'DuplicateGroup',
    z.object({ master_ticket: duplicateTicketViewSchema, duplicate_tickets: z.array(duplicateTicketViewSchema) }),
  ),
);
export type DuplicateGroup = z.infer<typeof duplicateGroupSchema>;
export const duplicateGroupsResponseSchema = schema(() =>
  named('DuplicateGroupsResponse', z.object({ duplicate_groups: z.array(duplicateGroupSchema) })),
);
export type DuplicateGroupsResponse = z.infer<typeof duplicateGroupsResponseSchema>;

/** "Section 112, Row F, Seat 7" from the parts a pass has. */
export function seatInfoCombined(seat: { section: string | null; row: string | null; seat: string | null }) {
  const parts = [
    seat.section ? `Section ${seat.section}` : null,
    seat.row ? `Row ${seat.row}` : null,
    seat.seat ? `Seat ${seat.seat}` : null,
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(', ') : null;
}
