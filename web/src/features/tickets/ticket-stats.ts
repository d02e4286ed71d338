import { percentOf } from '../../lib/format';

/** The fields of a ticket the overview stats read (SPEC.md §3 Ticket). */
export interface TicketStatsInput {
  is_distributed: boolean;
  venue_name?: string | null;
}

export interface TicketStats {
  total: number;
  distributed: number;
  /** Whole percent of tickets distributed. */
  distributionRate: number;
  uniqueVenues: number;
}

/** Figures of the Tickets Overview stats row (SPEC.md §2). */
export function computeTicketStats(tickets: readonly TicketStatsInput[]): TicketStats {
  const total = tickets.length;
  const distributed = tickets.filter((t) => t.is_distributed).length;
  const venues = new Set(tickets.map((t) => t.venue_name?.trim()).filter((v): v is string => Boolean(v)));
  return { total, distributed, distributionRate: percentOf(distributed, total), uniqueVenues: venues.size };
}
