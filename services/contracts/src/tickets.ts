import { z } from 'zod';
import { schema } from './schema.js';

/** A ticket's display status (docs/reference.md "Ticket"): 0 not distributed, 1 distributed, 2 duplicate. */
export const TICKET_STATUS = { notDistributed: 0, distributed: 1, duplicate: 2 } as const;

export interface TicketSeat {
  section: string | null;
  row: string | null;
  seat: string | null;
  /** "Section 112, Row F, Seat 7", or null when the pass has no seat. */
  seat_info_combined: string | null;
}

/** A distribution link (docs/reference.md "Link"): filled in by the distribution feature. */
export interface TicketDistribution {
  id: string;
  link: string;
  clicks: number;
  max_clicks: number | null;
  expiry: string | null;
  /** Its owner's note of whom it is for ("for Sam"); null for none. */
  label: string | null;
  /** A recipient must enter its PIN before "Add to wallet". */
  has_pin: boolean;
  /** Locked after too many wrong PINs, until its owner sets a new one. */
  pin_locked: boolean;
}

/** docs/reference.md "Ticket". */
export interface Ticket {
  id: string;
  account_id: string;
  account_email: string;
  title: string;
  subtitle: string | null;
  logo: string | null;
  venue_name: string | null;
  seat: TicketSeat;
  metadata: { next_game: string | null; next_game_date: string | null };
  is_duplicate: boolean;
  is_distributed: boolean;
  distribution: TicketDistribution | null;
  /** When the product first saw the ticket. */
  created_at: string;
}

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

export interface TicketsResponse {
  tickets: Ticket[];
  /** The version this answer stands at: pass it as `since` to get only what changed after it. */
  version: string;
  /** With `limit`: the cursor of the next page, or null on the last page. */
  next_cursor?: string | null;
  /** With `since`: ids of the tickets that left after that version (a ticket gone from its wallet, an account deleted). */
  removed?: string[];
  /** With `since`: the version was too old to answer by changes, so `tickets` holds every ticket (paged as asked). */
  full?: boolean;
}

/** GET /v1/admin/tickets: every user's tickets, with the owner. */
export interface AdminTicket extends Ticket {
  user: { id: string; email: string };
}
export interface AdminTicketsResponse {
  tickets: AdminTicket[];
}

/** docs/reference.md "Duplicate group": one ticket of a pass kept (the master), the others duplicates. */
export interface DuplicateTicketView {
  id: string;
  title: string;
  venue_name: string | null;
  seat_info: string | null;
  created_at: string;
  account: { email: string };
  user: { email: string };
}
export interface DuplicateGroup {
  master_ticket: DuplicateTicketView;
  duplicate_tickets: DuplicateTicketView[];
}
export interface DuplicateGroupsResponse {
  duplicate_groups: DuplicateGroup[];
}

/** "Section 112, Row F, Seat 7" from the parts a pass has. */
export function seatInfoCombined(seat: { section: string | null; row: string | null; seat: string | null }) {
  const parts = [
    seat.section ? `Section ${seat.section}` : null,
    seat.row ? `Row ${seat.row}` : null,
    seat.seat ? `Seat ${seat.seat}` : null,
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(', ') : null;
}
