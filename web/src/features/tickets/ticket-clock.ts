import type { Ticket } from '@seatlink/contracts';

/**
 * The clock a ticket's card or row is given: the time (lib/use-now.ts) when it shows a link, whose expiry and click
 * timeline age; 0 when it shows none, so the 30-second tick re-renders only the linked tickets in view, not every card
 * (each re-rendered card also writes its checkbox's attributes again, which a keystroke in the search then waits for).
 */
export function clockOf(ticket: Pick<Ticket, 'distribution'>, now: number): number {
  return ticket.distribution?.link ? now : 0;
}
