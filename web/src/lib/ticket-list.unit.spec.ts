import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Ticket } from '@seatlink/contracts';
import { stubFetch } from '../testing/fetch-stub';
import { aTicket } from '../testing/tickets';
import { createQueryClient } from './create-query-client';
import { applyTicketClicks, TICKET_LIST_KEY, ticketListQuery, type TicketList } from './ticket-list';

afterEach(() => {
  vi.unstubAllGlobals();
});

const ids = (tickets: readonly Ticket[]) => tickets.map((t) => t.id);
const urls = (calls: { method: string; url: string }[]) => calls.map((c) => `${c.method} ${c.url}`);

function linked(id: string, clicks: number): Ticket {
  return aTicket({
    id,
    is_distributed: true,
    distribution: {
      distribution_id: `d-${id}`,
      id: `d-${id}`,
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

/** Every list the cache held, in order (pages shown as they came, then the whole list). */
function watch(client: ReturnType<typeof createQueryClient>) {
  const seen: string[][] = [];
  client.getQueryCache().subscribe((event) => {
    if (event.type === 'updated' && event.action.type === 'success') {
      seen.push(ids((event.query.state.data as TicketList).tickets));
    }
  });
  return seen;
}

describe('the ticket list query', () => {
  it('reads a server that answers no version whole, first and on every change', async () => {
    const calls = stubFetch(
      { status: 200, body: { tickets: [aTicket({ id: 'a' }), aTicket({ id: 'b' })] } },
      { status: 200, body: { tickets: [aTicket({ id: 'b' })] } },
    );
    const client = createQueryClient();
    expect(await client.fetchQuery(ticketListQuery)).toMatchObject({ version: null, complete: true });
    const again = await client.fetchQuery(ticketListQuery);
    expect(urls(calls)).toEqual(['GET /v1/tickets?limit=100', 'GET /v1/tickets?limit=100']);
    expect(ids(again.tickets)).toEqual(['b']);
  });

  it('pages the first load, showing the first page at once and the rest when whole, then asks what changed since the first version', async () => {
    const [a, b, c] = [aTicket({ id: 'a' }), aTicket({ id: 'b' }), aTicket({ id: 'c' })];
    const renamedB = { ...b, title: 'Renamed' };
    const calls = stubFetch(
      { status: 200, body: { tickets: [a, b], version: '5', next_cursor: 'p2' } },
      { status: 200, body: { tickets: [c], version: '6', next_cursor: null } },
      { status: 200, body: { tickets: [renamedB], removed: ['a'], version: '7' } },
    );
    const client = createQueryClient();
    const seen = watch(client);
    const list = await client.fetchQuery(ticketListQuery);
    expect(urls(calls)).toEqual([
      'GET /v1/tickets?limit=100',
      'GET /v1/tickets?limit=500&after=p2',
      'GET /v1/tickets?since=5',
    ]);
    // Two lists are shown, not one a page: each is indexed and laid out again.
    expect(seen).toEqual([
      ['a', 'b'],
      ['b', 'c'],
    ]);
    expect(list).toMatchObject({ version: '7', complete: true });
    expect(list.tickets[0]).toEqual(renamedB);
  });

  it('a first load given up (its user signed out, the cache cleared) puts nothing back in the cache', async () => {
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    stubFetch(
      { status: 200, body: { tickets: [aTicket({ id: 'a' })], version: '5', next_cursor: 'p2' }, after: answered },
      { status: 200, body: { tickets: [aTicket({ id: 'b' })], version: '5', next_cursor: null } },
    );
    const client = createQueryClient();
    const read = client.fetchQuery(ticketListQuery).catch(() => undefined);
    await vi.waitFor(() => expect(fetch).toHaveBeenCalledTimes(1));
    // Signed out: the cache is cleared (the read is cancelled) as the first page's answer comes in.
    client.clear();
    answer();
    await read;
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(client.getQueryData(TICKET_LIST_KEY)).toBeUndefined();
  });

  it('holds a ticket once when it moved from one page to a later one while the pages came in', async () => {
    const [a, b, c] = [aTicket({ id: 'a' }), aTicket({ id: 'b' }), aTicket({ id: 'c' })];
    // b left its wallet and came back between the two pages: seen anew, it is on the second page too.
    const backB = { ...b, title: 'Back again' };
    stubFetch(
      { status: 200, body: { tickets: [a, b], version: '5', next_cursor: 'p2' } },
      { status: 200, body: { tickets: [c, backB], version: '6', next_cursor: null } },
      { status: 200, body: { tickets: [backB], removed: [], version: '7' } },
    );
    const client = createQueryClient();
    const list = await client.fetchQuery(ticketListQuery);
    expect(ids(list.tickets)).toEqual(['a', 'c', 'b']);
    expect(list.tickets[2]).toEqual(backB);
  });

  it('then asks only what changed since the version it holds, and merges it in', async () => {
    const [a, b] = [aTicket({ id: 'a' }), aTicket({ id: 'b' })];
    const calls = stubFetch(
      { status: 200, body: { tickets: [a, b], version: '7', next_cursor: null } },
      { status: 200, body: { tickets: [aTicket({ id: 'n' })], removed: [], version: '8' } },
      { status: 200, body: { tickets: [], removed: [], version: '8' } },
    );
    const client = createQueryClient();
    const first = await client.fetchQuery(ticketListQuery);
    const merged = await client.fetchQuery(ticketListQuery);
    expect(ids(merged.tickets)).toEqual(['a', 'b', 'n']);
    // Unchanged tickets stay the same objects.
    expect(merged.tickets[0]).toBe(first.tickets[0]);
    const same = await client.fetchQuery(ticketListQuery);
    expect(same.tickets).toBe(merged.tickets);
    expect(urls(calls).slice(1)).toEqual(['GET /v1/tickets?since=7', 'GET /v1/tickets?since=8']);
  });

  it('replaces the list when the version was too old to answer by changes', async () => {
    stubFetch(
      { status: 200, body: { tickets: [aTicket({ id: 'a' })], version: '7', next_cursor: null } },
      { status: 200, body: { tickets: [aTicket({ id: 'z' })], full: true, version: '2' } },
    );
    const client = createQueryClient();
    await client.fetchQuery(ticketListQuery);
    const replaced = await client.fetchQuery(ticketListQuery);
    expect(replaced).toMatchObject({ version: '2', complete: true });
    expect(ids(replaced.tickets)).toEqual(['z']);
  });

  it('puts a live click count in place without a request, and keeps it through a read answered before it', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const calls = stubFetch(
      { status: 200, body: { tickets: [linked('t', 1), aTicket({ id: 'u' })], version: '3', next_cursor: null } },
      { status: 200, body: { tickets: [linked('t', 2)], removed: [], version: '4' }, after: held },
    );
    const client = createQueryClient();
    await client.fetchQuery(ticketListQuery);
    const before = client.getQueryData<TicketList>(TICKET_LIST_KEY)!;
    applyTicketClicks(client, [{ user_id: 'u', ticket_id: 't', distribution_id: 'd-t', clicks: 5 }]);
    const after = client.getQueryData<TicketList>(TICKET_LIST_KEY)!;
    expect(calls).toHaveLength(1);
    expect(after.tickets[0]!.distribution!.clicks).toBe(5);
    expect(after.tickets[1]).toBe(before.tickets[1]);

    // A read by changes is under way; a newer push comes while it runs; its answer (2 clicks) is older than the push.
    const reading = client.fetchQuery(ticketListQuery);
    applyTicketClicks(client, [{ user_id: 'u', ticket_id: 't', distribution_id: 'd-t', clicks: 6 }]);
    release();
    const read = await reading;
    expect(read.version).toBe('4');
    expect(read.tickets[0]!.distribution!.clicks).toBe(6);
  });
});
