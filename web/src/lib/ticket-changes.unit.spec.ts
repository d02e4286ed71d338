import { describe, expect, it } from 'vitest';
import type { Ticket } from '@seatlink/contracts';
import { aTicket } from '../testing/tickets';
import {
  mergeTicketChanges,
  replaceTicketList,
  withoutTicketLink,
  withTicketClicks,
  withTicketLinks,
} from './ticket-changes';

const ids = (tickets: readonly Ticket[]) => tickets.map((t) => t.id);

function linked(id: string, clicks: number, distributionId = `d-${id}`): Ticket {
  return aTicket({
    id,
    is_distributed: true,
    distribution: {
      distribution_id: distributionId,
      id: distributionId,
      link: `https://l/${id}`,
      clicks,
      max_clicks: null,
      expiry: null,
      label: null,
      has_pin: false,
      pin_locked: false,
      claimed_by: null,
      recipient: null,
    },
  });
}

describe('ticket list changes', () => {
  const a = aTicket({ id: 'a' });
  const b = aTicket({ id: 'b' });
  const c = aTicket({ id: 'c' });

  it('replaces changed tickets where they stand, adds new ones at the end, leaves removed ones out', () => {
    const changedB = { ...b, title: 'Renamed' };
    const d = aTicket({ id: 'd' });
    const next = mergeTicketChanges([a, b, c], [d, changedB], ['a']);
    expect(ids(next)).toEqual(['b', 'c', 'd']);
    expect(next[0]).toBe(changedB);
    // Unchanged tickets stay the same objects (what is derived from them is not derived again).
    expect(next[1]).toBe(c);
  });

  it('answers the same list when nothing changed, and never adds a ticket it is told was removed', () => {
    const list = [a, b];
    expect(mergeTicketChanges(list, [], [])).toBe(list);
    expect(ids(mergeTicketChanges(list, [aTicket({ id: 'x' })], ['x']))).toEqual(['a', 'b']);
  });

  it('keeps a higher click count a push already showed for the same link, not for a new link', () => {
    const shown = [linked('t', 7)];
    expect(mergeTicketChanges(shown, [linked('t', 5)])[0]!.distribution!.clicks).toBe(7);
    expect(mergeTicketChanges(shown, [linked('t', 9)])[0]!.distribution!.clicks).toBe(9);
    expect(mergeTicketChanges(shown, [linked('t', 0, 'd-new')])[0]!.distribution).toMatchObject({
      distribution_id: 'd-new',
      id: 'd-new',
      clicks: 0,
    });
    const fresh = [linked('t', 3), b];
    const replaced = replaceTicketList(shown, fresh);
    expect(replaced[0]!.distribution!.clicks).toBe(7);
    expect(replaced[1]).toBe(b);
    const fresher = [linked('t', 8)];
    expect(replaceTicketList(shown, fresher)).toBe(fresher);
  });

  it('puts click counts in place, only for the same link and only upwards, many links in one pass', () => {
    const clicked = (ticket: string, link: string, clicks: number) => ({
      user_id: 'u',
      ticket_id: ticket,
      distribution_id: link,
      clicks,
    });
    const list = [a, linked('t', 2), linked('v', 1)];
    const next = withTicketClicks(list, [clicked('t', 'd-t', 3), clicked('v', 'd-v', 4), clicked('missing', 'd-x', 9)]);
    expect(next[1]!.distribution!.clicks).toBe(3);
    expect(next[2]!.distribution!.clicks).toBe(4);
    expect(next[0]).toBe(a);
    expect(list[1]!.distribution!.clicks).toBe(2);
    expect(withTicketClicks(next, [clicked('t', 'd-t', 3)])).toBe(next);
    expect(withTicketClicks(next, [clicked('t', 'd-t', 1)])).toBe(next);
    expect(withTicketClicks(next, [clicked('t', 'd-other', 9)])).toBe(next);
    expect(withTicketClicks(next, [clicked('missing', 'd-t', 9)])).toBe(next);
    expect(withTicketClicks(next, [])).toBe(next);
  });

  it('shows links just made and takes away a link just recalled', () => {
    const link = {
      distribution_id: 'd-new',
      id: 'd-new',
      link: 'https://l/new',
      clicks: 0,
      max_clicks: 5,
      expiry: null,
      label: null,
      has_pin: false,
      pin_locked: false,
      claimed_by: null,
      recipient: null,
    };
    const made = withTicketLinks([a, b], new Map([['b', link]]));
    expect(made[1]).toMatchObject({ is_distributed: true, distribution: link });
    expect(made[0]).toBe(a);
    const recalled = withoutTicketLink(made, 'b', 'd-new');
    expect(recalled[1]).toMatchObject({ is_distributed: false, distribution: null });
    // Another link (made again meanwhile) stays.
    expect(withoutTicketLink(made, 'b', 'd-old')).toBe(made);
  });
});
