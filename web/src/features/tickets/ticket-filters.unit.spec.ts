import { describe, expect, it } from 'vitest';
import { TICKET_STATUS, type Ticket } from '@seatlink/contracts';
import { aTicket, manyTickets } from '../../testing/tickets';
import {
  accountOptions,
  compareStatus,
  EMPTY_FILTERS,
  eventOptions,
  filterTickets,
  hasActiveFilters,
  indexTickets,
  nextSort,
  searchTextOf,
  searchTextsAhead,
  sortTickets,
  ticketStatus,
  visibleOf,
  type TicketFilters,
  type TicketSort,
} from './ticket-filters';

const filters = (patch: Partial<TicketFilters>): TicketFilters => ({ ...EMPTY_FILTERS, ...patch });
const ids = (tickets: readonly Ticket[]) => tickets.map((t) => t.id);

function distributed(id: string, expiry: string | null, label: string | null = null): Ticket {
  return aTicket({
    id,
    is_distributed: true,
    distribution: {
      distribution_id: `d-${id}`,
      id: `d-${id}`,
      link: `https://l/${id}`,
      clicks: 0,
      max_clicks: null,
      expiry,
      label,
      has_pin: false,
      pin_locked: false,
      claimed_by: null,
      recipient: null,
    },
  });
}

describe('ticket status (docs/reference.md#ticket)', () => {
  it('is duplicate before anything else, then distributed, else not distributed', () => {
    expect(ticketStatus({ is_duplicate: false, is_distributed: false })).toBe(TICKET_STATUS.notDistributed);
    expect(ticketStatus({ is_duplicate: false, is_distributed: true })).toBe(TICKET_STATUS.distributed);
    expect(ticketStatus({ is_duplicate: true, is_distributed: false })).toBe(TICKET_STATUS.duplicate);
    expect(ticketStatus({ is_duplicate: true, is_distributed: true })).toBe(TICKET_STATUS.duplicate);
  });
});

describe('ticket filters (docs/reference.md#tickets-overview-screen and #ticket-and-link-transitions)', () => {
  const comets = aTicket({
    id: 'comets',
    title: 'Riverside Comets',
    subtitle: 'Courtside Season Pass',
    venue_name: 'Riverside Arena',
    account_id: 'a-1',
    account_email: 'alex@wallet.test',
  });
  const titans = aTicket({
    id: 'titans',
    title: 'Eastbridge Titans',
    subtitle: null,
    venue_name: 'Eastbridge Dome',
    seat: {
      section: 'Upper Tier 210',
      row: 'H',
      seat: '15',
      seat_info_combined: 'Section Upper Tier 210, Row H, Seat 15',
    },
    account_id: 'a-2',
    account_email: 'sam@wallet.test',
  });
  const titansCopy = aTicket({
    ...titans,
    id: 'titans-copy',
    account_id: 'a-1',
    account_email: 'alex@wallet.test',
    is_duplicate: true,
  });
  const sent = {
    ...distributed('sent', '2027-01-01T00:00:00Z', 'For Sam Hughes'),
    title: 'Riverside Comets',
    account_id: 'a-2',
    account_email: 'sam@wallet.test',
  };
  const all = [comets, titans, titansCopy, sent];

  it('passes everything through without filters', () => {
    expect(ids(filterTickets(all, EMPTY_FILTERS))).toEqual(['comets', 'titans', 'titans-copy', 'sent']);
    expect(hasActiveFilters(EMPTY_FILTERS)).toBe(false);
    expect(hasActiveFilters(filters({ search: '  ' }))).toBe(false);
    expect(hasActiveFilters(filters({ status: 'distributed' }))).toBe(true);
  });

  it("searches title, subtitle, venue, seat, account e-mail and the link's label, ignoring case and outer spaces", () => {
    expect(ids(filterTickets(all, filters({ search: 'sam hughes' })))).toEqual(['sent']);
    expect(ids(filterTickets(all, filters({ search: 'courtside' })))).toEqual(['comets']);
    expect(ids(filterTickets(all, filters({ search: ' ARENA ' })))).toEqual(['comets']);
    expect(ids(filterTickets(all, filters({ search: 'row h, seat 15' })))).toEqual(['titans', 'titans-copy']);
    expect(ids(filterTickets(all, filters({ search: 'sam@wallet' })))).toEqual(['titans', 'sent']);
    expect(ids(filterTickets(all, filters({ search: 'eastbridge' })))).toEqual(['titans', 'titans-copy']);
    expect(filterTickets(all, filters({ search: 'nothing like it' }))).toEqual([]);
  });

  it('filters by account and by event title', () => {
    expect(ids(filterTickets(all, filters({ selectedAccount: 'a-1' })))).toEqual(['comets', 'titans-copy']);
    expect(ids(filterTickets(all, filters({ event: 'Riverside Comets' })))).toEqual(['comets', 'sent']);
  });

  it('leaves duplicates out of Distributed and Not Distributed', () => {
    expect(ids(filterTickets(all, filters({ status: 'distributed' })))).toEqual(['sent']);
    expect(ids(filterTickets(all, filters({ status: 'not-distributed' })))).toEqual(['comets', 'titans']);
    expect(ids(filterTickets(all, filters({ status: 'all' })))).toHaveLength(4);
  });

  it('combines filters', () => {
    expect(
      ids(filterTickets(all, filters({ selectedAccount: 'a-2', status: 'not-distributed', search: 'dome' }))),
    ).toEqual(['titans']);
  });
});

describe('a search typed letter by letter', () => {
  const tickets = manyTickets(2_000);
  // What a fresh list (a new index, nothing filtered on it before) shows for the same filters and sort.
  const fresh = (f: TicketFilters, sort: TicketSort | null = null) => ids(visibleOf(indexTickets(tickets), f, sort));

  it('shows at every step what a fresh search shows: letters typed, deleted, and other filters changed between', () => {
    const index = indexTickets(tickets);
    const steps: Array<[TicketFilters, TicketSort | null]> = [
      ...['s', 'se', 'sea', 'seat', 'seat ', 'seat 1'].map(
        (search) => [filters({ search }), null] as [TicketFilters, null],
      ),
      [filters({ search: 'seat' }), null], // a letter deleted: no longer a narrowing of the last
      [filters({ search: 'seat 2' }), null],
      [filters({ search: 'seat 2', status: 'distributed' }), null], // another filter on
      [filters({ search: 'seat 21', status: 'distributed' }), null],
      [filters({ search: 'seat 21' }), null], // and off again: the tickets it left out come back
      [filters({ search: 'seat 21' }), { key: 'event', direction: 'desc' }], // sorted: the list order kept underneath
      [filters({ search: 'seat 210' }), null],
      [filters({ search: 'eat 210' }), null], // a letter deleted at the start
      [filters({ search: '' }), null],
      [filters({ search: 'e' }), null],
    ];
    for (const [f, sort] of steps) {
      const shown = ids(visibleOf(index, f, sort));
      expect(shown, `${JSON.stringify(f)} ${JSON.stringify(sort)}`).toEqual(fresh(f, sort));
    }
    // The steps narrowed something: a query that matched all or nothing would prove little.
    const some = ids(visibleOf(index, filters({ search: 'seat 2' }), null)).length;
    expect(some).toBeGreaterThan(0);
    expect(some).toBeLessThan(tickets.length);
  });

  it('keeps each list to itself: a narrowing on one list does not carry over to another', () => {
    const first = indexTickets(tickets);
    visibleOf(first, filters({ search: 'seat 1' }), null);
    const renamed = tickets.map((t, i) => (i === 3 ? { ...t, title: `${t.title} seat 1 extra` } : t));
    const second = indexTickets(renamed);
    expect(ids(visibleOf(second, filters({ search: 'seat 1 extra' }), null))).toEqual([renamed[3]!.id]);
  });
});

describe('ticket sort (the status order: docs/reference.md#ticket-and-link-transitions)', () => {
  it('orders not distributed, distributed by earliest expiry (none last), then duplicates', () => {
    const later = distributed('later', '2027-03-01T00:00:00Z');
    const sooner = distributed('sooner', '2027-01-15T00:00:00Z');
    const never = distributed('never', null);
    const open = aTicket({ id: 'open' });
    const dup = aTicket({ id: 'dup', is_duplicate: true });
    const open2 = aTicket({ id: 'open2' });
    const sorted = sortTickets([dup, later, never, open, sooner, open2], { key: 'status', direction: 'asc' });
    expect(ids(sorted)).toEqual(['open', 'open2', 'sooner', 'later', 'never', 'dup']);
    const reversed = sortTickets([dup, later, never, open, sooner, open2], { key: 'status', direction: 'desc' });
    expect(ids(reversed)).toEqual(['dup', 'never', 'later', 'sooner', 'open', 'open2']);
    expect(compareStatus(open, dup)).toBeLessThan(0);
  });

  it('sorts by event (title, then subtitle) and by account e-mail, keeping ties in their order', () => {
    const a = aTicket({ id: 'a', title: 'riverside Comets', subtitle: 'B' });
    const b = aTicket({ id: 'b', title: 'Eastbridge Titans', account_email: 'zed@wallet.test' });
    const c = aTicket({ id: 'c', title: 'Riverside Comets', subtitle: 'A', account_email: 'amy@wallet.test' });
    const d = aTicket({ id: 'd', title: 'Eastbridge Titans', account_email: 'amy@wallet.test' });
    expect(ids(sortTickets([a, b, c, d], { key: 'event', direction: 'asc' }))).toEqual(['b', 'd', 'c', 'a']);
    expect(ids(sortTickets([a, b, c, d], { key: 'event', direction: 'desc' }))).toEqual(['a', 'c', 'b', 'd']);
    expect(ids(sortTickets([a, b, c, d], { key: 'account', direction: 'asc' }))).toEqual(['a', 'c', 'd', 'b']);
  });

  it('puts a title before longer titles it begins, whatever the subtitles', () => {
    const plain = aTicket({ id: 'plain', title: 'Eastbridge Titans', subtitle: 'Season Ticket 2026/27' });
    const match = aTicket({ id: 'match', title: 'Eastbridge Titans vs Ashford Falcons', subtitle: 'Round 9' });
    expect(ids(sortTickets([match, plain], { key: 'event', direction: 'asc' }))).toEqual(['plain', 'match']);
  });

  it("sorts by the next game's date, soonest first, keeping ties in their order and undated tickets last", () => {
    const at = (id: string, date: string | null) =>
      aTicket({ id, metadata: { next_game: date ? `Game ${id}` : null, next_game_date: date } });
    const march = at('march', '2027-03-01T19:45:00.000Z');
    const january = at('january', '2027-01-10T15:00:00.000Z');
    const januaryToo = at('january-too', '2027-01-10T15:00:00.000Z');
    const none = at('none', null);
    const notADate = at('not-a-date', 'to be announced');
    const december = at('december', '2026-12-26T12:30:00.000Z');
    const list = [none, march, january, notADate, januaryToo, december];
    expect(ids(sortTickets(list, { key: 'date', direction: 'asc' }))).toEqual([
      'december',
      'january',
      'january-too',
      'march',
      'none',
      'not-a-date',
    ]);
    // Descending: latest first; ties still in the list's order, and the undated still last.
    expect(ids(sortTickets(list, { key: 'date', direction: 'desc' }))).toEqual([
      'march',
      'january',
      'january-too',
      'december',
      'none',
      'not-a-date',
    ]);
    // A ticket without metadata at all is undated too.
    const bare = { ...at('bare', null), metadata: undefined } as unknown as Ticket;
    expect(ids(sortTickets([bare, march], { key: 'date', direction: 'asc' }))).toEqual(['march', 'bare']);
    expect(ids(sortTickets([bare, march], { key: 'date', direction: 'desc' }))).toEqual(['march', 'bare']);
  });

  it('sorts by date through a filtered list as through the whole of it', () => {
    const tickets = manyTickets(300);
    const index = indexTickets(tickets);
    const sort: TicketSort = { key: 'date', direction: 'asc' };
    const shown = visibleOf(index, filters({ status: 'not-distributed' }), sort);
    expect(ids(shown)).toEqual(ids(sortTickets(filterTickets(tickets, filters({ status: 'not-distributed' })), sort)));
    const dates = shown.map((t) => Date.parse(t.metadata.next_game_date ?? ''));
    const dated = dates.filter((d) => !Number.isNaN(d));
    expect(dated.length).toBeGreaterThan(0);
    expect(dated).toEqual([...dated].sort((a, b) => a - b));
    // Every undated ticket comes after every dated one.
    expect(dates.slice(dated.length).every((d) => Number.isNaN(d))).toBe(true);
  });

  it('keeps the given order without a sort, and never changes its input', () => {
    const list = [aTicket({ id: 'x' }), aTicket({ id: 'y' })];
    const sorted = sortTickets(list, null);
    expect(ids(sorted)).toEqual(['x', 'y']);
    expect(sorted).not.toBe(list);
  });

  it('goes ascending, then descending, on the same column', () => {
    expect(nextSort(null, 'event')).toEqual({ key: 'event', direction: 'asc' });
    expect(nextSort({ key: 'event', direction: 'asc' }, 'event')).toEqual({ key: 'event', direction: 'desc' });
    expect(nextSort({ key: 'event', direction: 'desc' }, 'event')).toEqual({ key: 'event', direction: 'asc' });
    expect(nextSort({ key: 'event', direction: 'desc' }, 'status')).toEqual({ key: 'status', direction: 'asc' });
  });
});

describe('filter options', () => {
  it('lists each event title once, alphabetically', () => {
    const tickets = [
      aTicket({ title: 'Riverside Comets' }),
      aTicket({ title: 'Eastbridge Titans' }),
      aTicket({ title: 'Riverside Comets' }),
    ];
    expect(eventOptions(tickets)).toEqual(['Eastbridge Titans', 'Riverside Comets']);
  });

  it('names each account by name and e-mail, and keeps accounts only tickets know', () => {
    const options = accountOptions(
      [
        { id: 'a-2', name: 'Sam Okafor', email: 'sam@wallet.test' },
        { id: 'a-1', name: 'Alex Carter', email: 'alex@wallet.test' },
        { id: 'a-3', name: ' ', email: 'nameless@wallet.test' },
      ],
      [aTicket({ account_id: 'a-1' }), aTicket({ account_id: 'a-9', account_email: 'gone@wallet.test' })],
    );
    expect(options).toEqual([
      { id: 'a-1', label: 'Alex Carter (alex@wallet.test)' },
      { id: 'a-9', label: 'gone@wallet.test' },
      { id: 'a-3', label: 'nameless@wallet.test' },
      { id: 'a-2', label: 'Sam Okafor (sam@wallet.test)' },
    ]);
  });
});

describe('10,000 tickets', () => {
  // A loaded machine may take seconds over 10,000 tickets; the times are printed, never asserted.
  it(
    'indexes them once, then filters and sorts from the index (timings printed, not asserted)',
    { timeout: 30_000 },
    () => {
      const tickets = manyTickets(10_000);
      const time = <T>(label: string, run: () => T): T => {
        const started = performance.now();
        const result = run();
        const ms = performance.now() - started;
        const shown = Array.isArray(result) ? ` → ${result.length} shown` : '';
        console.log(`[10,000 tickets] ${label}: ${ms.toFixed(1)} ms${shown}`);
        return result;
      };

      const index = time('index (search texts, sort ranks)', () => indexTickets(tickets));
      // A list read by changes keeps its unchanged tickets: indexing it again reuses their search texts.
      const changed = tickets.map((t, i) => (i === 17 ? { ...t, title: 'Renamed' } : t));
      time('index again after one change', () => indexTickets(changed));
      const searched = time('search "row c"', () => visibleOf(index, filters({ search: 'row c' }), null));
      time('search + account + status + event', () =>
        visibleOf(
          index,
          filters({
            search: 'season',
            selectedAccount: 'account-3',
            status: 'not-distributed',
            event: 'Northgate Rovers',
          }),
          null,
        ),
      );
      const byStatus = time('no filter, sort by status', () =>
        visibleOf(index, EMPTY_FILTERS, { key: 'status', direction: 'asc' }),
      );
      const byEvent = time('no filter, sort by event', () =>
        visibleOf(index, EMPTY_FILTERS, { key: 'event', direction: 'asc' }),
      );
      const byDate = time('no filter, sort by date', () =>
        visibleOf(index, EMPTY_FILTERS, { key: 'date', direction: 'asc' }),
      );
      time('search + sort by account (desc)', () =>
        visibleOf(index, filters({ search: 'stadium' }), { key: 'account', direction: 'desc' }),
      );
      time('event options', () => eventOptions(tickets));

      expect(searched.length).toBeGreaterThan(0);
      expect(searched.every((t) => /row c/i.test(t.seat.seat_info_combined ?? ''))).toBe(true);
      // The status order holds across the whole list, and the ranks sort as the collator does.
      const statuses = byStatus.map(ticketStatus);
      expect(statuses).toEqual([...statuses].sort((a, b) => a - b));
      expect(ids(byEvent)).toEqual(ids(sortTickets(tickets, { key: 'event', direction: 'asc' })));
      const collate = (a: Ticket, b: Ticket) =>
        a.title.localeCompare(b.title, 'en-GB', { sensitivity: 'base', numeric: true }) ||
        (a.subtitle ?? '').localeCompare(b.subtitle ?? '', 'en-GB', { sensitivity: 'base', numeric: true });
      expect(ids(byEvent)).toEqual(ids([...tickets].sort(collate)));
      // By date: as a plain comparison of the dates would order them (undated last, ties in list order).
      const dateOf = (t: Ticket) => Date.parse(t.metadata.next_game_date ?? '');
      const byDateExpected = tickets
        .map((t, i) => ({ t, i, d: dateOf(t) }))
        .sort((a, b) =>
          Number.isNaN(a.d) !== Number.isNaN(b.d) ? (Number.isNaN(a.d) ? 1 : -1) : a.d - b.d || 0 || a.i - b.i,
        )
        .map((e) => e.t.id);
      expect(ids(byDate)).toEqual(byDateExpected);
    },
  );

  it('makes the search texts ahead a few at a time, going on from where it stopped until every ticket has one', () => {
    const tickets = manyTickets(200);
    const ahead = searchTextsAhead(tickets);
    let asked = 0;
    const never = () => {
      asked++;
      return false;
    };
    // Told there is no time left, it stops after each piece of 64: 64, 128, 192, then the last 8.
    expect([ahead(never), ahead(never), ahead(never), ahead(never)]).toEqual([false, false, false, true]);
    expect(asked).toBe(3);
    expect(ahead(never)).toBe(true);
    expect(searchTextsAhead(tickets)(() => true)).toBe(true);
    expect(searchTextsAhead([])(never)).toBe(true);
    // The texts made ahead are those a search reads.
    const index = indexTickets(tickets);
    expect(index.text).toEqual(tickets.map(searchTextOf));
    expect(index.text[0]).toContain(tickets[0]!.title.toLowerCase());
  });

  it('answers the list itself when nothing filters or sorts it', () => {
    const tickets = manyTickets(50);
    expect(visibleOf(indexTickets(tickets), EMPTY_FILTERS, null)).toBe(tickets);
  });
});
