import { useCallback, useEffect } from 'react';
import { useServerEvent } from '../../../lib/realtime';
import { useDebouncedCallback } from '../../../lib/use-debounced-callback';
import { useTicketsStore } from '../tickets.store';

/** Pushes that arrive together (a sync touches many tickets) cause one reload. */
const LIVE_REFRESH_MS = 400;

/**
 * Loads the tickets and the accounts of the overview, then follows live pushes: links, their clicks and the tickets
 * of a sync stay current while the page is open.
 */
export function useLiveTickets(): void {
  const { fetchTickets, fetchAccounts, applyClicks } = useTicketsStore.getState();

  useEffect(() => {
    void fetchTickets();
    void fetchAccounts();
  }, [fetchTickets, fetchAccounts]);

  const refresh = useDebouncedCallback(
    useCallback(() => {
      void fetchTickets({ silent: true });
      void fetchAccounts();
    }, [fetchTickets, fetchAccounts]),
    LIVE_REFRESH_MS,
  );
  useServerEvent('tickets.updated', refresh);
  useServerEvent('account.updated', refresh);
  // A click changes one count in place; a link made or recalled (here or in another tab) re-reads the tickets.
  useServerEvent('distribution.updated', ({ ticket_id, distribution_id, clicks }) => {
    if (clicks !== undefined) applyClicks(ticket_id, distribution_id, clicks);
    else refresh();
  });
  // After a reconnect a push may have been missed.
  useServerEvent('connect', refresh);
}
