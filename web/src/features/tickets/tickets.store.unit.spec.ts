import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../lib/create-query-client';
import { ticketListQuery, type TicketList } from '../../lib/ticket-list';
import { stubFetch } from '../../testing/fetch-stub';
import { aTicket } from '../../testing/tickets';
import { ticketsSlice } from './hooks/use-tickets';
import { EMPTY_FILTERS } from './ticket-filters';
import { createTicketsStore } from './tickets.store';

afterEach(() => {
  vi.unstubAllGlobals();
});

/** The tickets slice as the overview reads it from the query's state now. */
function slice(client: ReturnType<typeof createQueryClient>) {
  const state = client.getQueryCache().find<TicketList>({ queryKey: ticketListQuery.queryKey })!.state;
  return ticketsSlice(state);
}

describe('tickets slice', () => {
  it("says 'Failed to fetch tickets' (or the server's message) while there is no list", async () => {
    stubFetch({ status: 500 }, { status: 503, body: { message: 'Down for maintenance' } });
    const client = createQueryClient();
    await expect(client.fetchQuery(ticketListQuery)).rejects.toThrow();
    expect(slice(client)).toMatchObject({ error: 'Failed to fetch tickets', loaded: false, loading: false });
    await expect(client.fetchQuery(ticketListQuery)).rejects.toThrow();
    expect(slice(client).error).toBe('Down for maintenance');
  });

  it('keeps the list through a failed refresh (it is only out of date)', async () => {
    stubFetch({ status: 200, body: { tickets: [aTicket({ id: 't1' })] } }, { status: 502 });
    const client = createQueryClient();
    await client.fetchQuery(ticketListQuery);
    await expect(client.fetchQuery(ticketListQuery)).rejects.toThrow();
    expect(slice(client)).toMatchObject({ error: null, loaded: true, complete: true });
    expect(slice(client).tickets.map((t) => t.id)).toEqual(['t1']);
  });
});

describe('tickets UI store', () => {
  it('keeps filters, view and sort, and clears the filters', () => {
    const store = createTicketsStore();
    store.getState().setFilters({ search: 'comets', selectedAccount: 'a1' });
    store.getState().setFilters({ status: 'not-distributed' });
    store.getState().setView('list');
    store.getState().sortBy('status');
    store.getState().sortBy('status');
    expect(store.getState()).toMatchObject({
      filters: { search: 'comets', selectedAccount: 'a1', status: 'not-distributed', event: '' },
      view: 'list',
      sort: { key: 'status', direction: 'desc' },
    });
    store.getState().clearFilters();
    expect(store.getState().filters).toEqual(EMPTY_FILTERS);
  });

  it('shares one sort between the Sort by control and the headers', () => {
    const store = createTicketsStore();
    store.getState().setSort({ key: 'date', direction: 'desc' });
    expect(store.getState().sort).toEqual({ key: 'date', direction: 'desc' });
    // A header pressed on the sort the control chose turns it round, as a second press would.
    store.getState().sortBy('date');
    expect(store.getState().sort).toEqual({ key: 'date', direction: 'asc' });
    store.getState().setSort(null);
    expect(store.getState().sort).toBeNull();
  });

  it('ticks and unticks, and unticks tickets that are gone', () => {
    const store = createTicketsStore();
    store.getState().toggleSelected('a');
    store.getState().setSelected(['b', 'c'], true);
    store.getState().toggleSelected('a');
    expect([...store.getState().selectedIds]).toEqual(['b', 'c']);
    const before = store.getState().selectedIds;
    store.getState().keepSelected(() => true);
    expect(store.getState().selectedIds).toBe(before);
    store.getState().keepSelected((id) => id !== 'c');
    expect([...store.getState().selectedIds]).toEqual(['b']);
    store.getState().clearSelection();
    expect(store.getState().selectedIds.size).toBe(0);
  });
});
