import type { Ticket } from '@seatlink/contracts';

/**
 * The height a ticket's card takes, px, as its data says: the parts every card has (the title's two lines kept
 * whether it needs one or two), plus a duplicate's banner, a next game (two lines) and a link (its line, facts and
 * buttons, and its label's line when it has one). The grid lays its rows out by this before any is rendered: when it
 * is exact, a row that scrolls into view is measured at the height it was given and nothing moves.
 */
export function ticketCardHeight(ticket: Ticket): number {
  const { next_game: nextGame, next_game_date: nextGameDate } = ticket.metadata ?? {};
  let height = 252;
  if (ticket.is_duplicate) height += 28;
  if (nextGame || nextGameDate) height += 40;
  if (ticket.distribution?.link && !ticket.is_duplicate) {
    // Its line, its clicks and its expiry (a line each: components/distribution/link-facts.tsx) and its buttons.
    height += 84;
    // Its label's, PIN's and claimant's line (20 px, and the gap above the link).
    const { label, has_pin: hasPin, claimed_by: claimedBy, recipient } = ticket.distribution;
    if (label || hasPin || claimedBy || recipient) height += 26;
  }
  return height;
}
