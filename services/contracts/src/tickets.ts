/** SPEC.md §3 Ticket display status: 0 not distributed, 1 distributed, 2 duplicate. */
export const TICKET_STATUS = { notDistributed: 0, distributed: 1, duplicate: 2 } as const;

export interface TicketSeat {
  section: string | null;
  row: string | null;
  seat: string | null;
  /** "Section 112, Row F, Seat 7", or null when the pass has no seat. */
  seat_info_combined: string | null;
}

/** A distribution link (SPEC.md §3 Distribution): filled in by the distribution feature. */
export interface TicketDistribution {
  id: string;
  link: string;
  clicks: number;
  max_clicks: number | null;
  expiry: string | null;
}

/** SPEC.md §3 Ticket. */
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

export interface TicketsResponse {
  tickets: Ticket[];
}

/** GET /v1/admin/tickets: every user's tickets, with the owner. */
export interface AdminTicket extends Ticket {
  user: { id: string; email: string };
}
export interface AdminTicketsResponse {
  tickets: AdminTicket[];
}

/** SPEC.md §3 Duplicate group: one ticket of a pass kept (the master), the others duplicates. */
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
