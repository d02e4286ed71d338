import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubFetch } from '../../testing/fetch-stub';
import { anAccount, aTicket } from '../../testing/tickets';
import { EMPTY_FILTERS } from './ticket-filters';
import { createTicketsStore } from './tickets.store';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('tickets store', () => {
  it('loads GET /v1/tickets, and the accounts for the account filter', async () => {
    const tickets = [aTicket({ id: 't1' })];
    const calls = stubFetch(
      { status: 200, body: { tickets } },
      { status: 200, body: { accounts: [anAccount({ id: 'a1', name: 'Alex Carter', email: 'alex@wallet.test' })] } },
    );
    const store = createTicketsStore();
    await store.getState().fetchTickets();
    await store.getState().fetchAccounts();
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual(['GET /v1/tickets', 'GET /v1/accounts']);
    expect(store.getState()).toMatchObject({ tickets, loaded: true, loading: false, error: null });
    expect(store.getState().accounts).toEqual([{ id: 'a1', name: 'Alex Carter', email: 'alex@wallet.test' }]);
  });

  it("falls back to 'Failed to fetch tickets'; a failed live refresh keeps the list", async () => {
    stubFetch({ status: 500 }, { status: 200, body: { tickets: [aTicket()] } }, { status: 502 });
    const store = createTicketsStore();
    await store.getState().fetchTickets();
    expect(store.getState()).toMatchObject({ error: 'Failed to fetch tickets', loaded: false });
    await store.getState().fetchTickets();
    await store.getState().fetchTickets({ silent: true });
    expect(store.getState()).toMatchObject({ error: null, loaded: true });
    expect(store.getState().tickets).toHaveLength(1);
  });

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
});
