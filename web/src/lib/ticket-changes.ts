import type { LinkClicks, Ticket, TicketDistribution } from '@seatlink/contracts';

/**
 * The user's ticket list changed piecewise (pure): an answer of changes merged in, a click count or a link put in
 * place. Each function answers the same array when nothing changes, and keeps every ticket it does not change (the
 * same object), so what is derived per ticket (search text, sort keys, a memoised row) is derived again only for the
 * tickets that changed.
 */

/**
 * `list` with `changed` put in — a ticket already there replaced where it stands, a new one added at the end (the
 * list is in first-seen order) — and the tickets of `removed` left out.
 */
export function mergeTicketChanges(
  list: readonly Ticket[],
  changed: readonly Ticket[],
  removed: readonly string[] = [],
): readonly Ticket[] {
  if (changed.length === 0 && removed.length === 0) return list;
  const incoming = new Map(changed.map((ticket) => [ticket.id, ticket]));
  const gone = new Set(removed);
  const next: Ticket[] = [];
  for (const ticket of list) {
    if (gone.has(ticket.id)) continue;
    const update = incoming.get(ticket.id);
    if (update) {
      next.push(withClicksNotBehind(update, ticket));
      incoming.delete(ticket.id);
    } else next.push(ticket);
  }
  for (const ticket of incoming.values()) if (!gone.has(ticket.id)) next.push(ticket);
  return next;
}

/**
 * A fresh answer for a ticket, keeping the click count shown when it is higher for the same link: a live push may
 * have said a newer count than the read model the answer came from (counts only go up).
 */
function withClicksNotBehind(fresh: Ticket, shown: Ticket): Ticket {
  const link = fresh.distribution;
  const before = shown.distribution;
  if (!link || !before || before.id !== link.id || before.clicks <= link.clicks) return fresh;
  return { ...fresh, distribution: { ...link, clicks: before.clicks } };
}

/**
 * `tickets` with each ticket once, where it stands last: the pages of a first load are read one after another, and a
 * pass that left its wallet and came back between two of them is on an early page and, seen anew, on a later one.
 */
export function withoutRepeats(tickets: readonly Ticket[]): readonly Ticket[] {
  const last = new Map<string, number>();
  tickets.forEach((ticket, index) => last.set(ticket.id, index));
  if (last.size === tickets.length) return tickets;
  return tickets.filter((ticket, index) => last.get(ticket.id) === index);
}

/** A whole new list (a full answer) that keeps the higher click counts `shown` has for the same links. */
export function replaceTicketList(shown: readonly Ticket[] | undefined, fresh: readonly Ticket[]): readonly Ticket[] {
  if (!shown || shown.length === 0) return fresh;
  const clicks = new Map<string, number>();
  for (const ticket of shown)
    if (ticket.distribution) clicks.set(ticket.distribution.distribution_id, ticket.distribution.clicks);
  let next: Ticket[] | null = null;
  fresh.forEach((ticket, index) => {
    const link = ticket.distribution;
    const known = link ? clicks.get(link.id) : undefined;
    if (!link || known === undefined || known <= link.clicks) return;
    next ??= fresh.slice();
    next[index] = { ...ticket, distribution: { ...link, clicks: known } };
  });
  return next ?? fresh;
}

/**
 * Links' new click counts in place (a `distributions.clicked` push: many links at once, one pass over the list); a
 * ticket that has another link now or a count as high is left as it is. The same list when nothing changed.
 */
export function withTicketClicks(list: readonly Ticket[], links: readonly LinkClicks[]): readonly Ticket[] {
  const byTicket = new Map(links.map((l) => [l.ticket_id, l]));
  let next: Ticket[] | null = null;
  list.forEach((ticket, index) => {
    const clicked = byTicket.get(ticket.id);
    const link = ticket.distribution;
    if (!clicked || !link || link.id !== clicked.distribution_id || link.clicks >= clicked.clicks) return;
    next ??= list.slice();
    next[index] = {
      ...ticket,
      distribution: { ...link, clicks: clicked.clicks, claimed_by: clicked.claimed_by ?? link.claimed_by },
    };
  });
  return next ?? list;
}

/** Links just made, by ticket id, shown on their tickets before the list is read again. */
export function withTicketLinks(
  list: readonly Ticket[],
  links: ReadonlyMap<string, TicketDistribution>,
): readonly Ticket[] {
  if (links.size === 0) return list;
  return list.map((ticket) => {
    const distribution = links.get(ticket.id);
    return distribution ? { ...ticket, is_distributed: true, distribution } : ticket;
  });
}

/** A link just recalled leaves its ticket (when the ticket still has that link). */
export function withoutTicketLink(
  list: readonly Ticket[],
  ticketId: string,
  distributionId: string,
): readonly Ticket[] {
  const index = list.findIndex((t) => t.id === ticketId);
  const ticket = list[index];
  if (!ticket || ticket.distribution?.distribution_id !== distributionId) return list;
  const next = list.slice();
  next[index] = { ...ticket, is_distributed: false, distribution: null };
  return next;
}
