import { useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { useAccountSyncsStore } from '../features/accounts/account-syncs.store';
import { ACCOUNT_TICKETS_KEY, accountTicketsKey } from '../features/accounts/accounts.queries';
import { ADMIN_ACCOUNTS_KEY } from '../features/admin-accounts/admin-accounts.queries';
import { auditsKey } from '../features/admin-audit/admin-audit.queries';
import { ADMIN_USERS_KEY } from '../features/admin-users/admin-users.queries';
import { useAuthStore } from '../features/auth/auth.store';
import { DUPLICATE_TICKETS_KEY } from '../features/duplicate-tickets/duplicate-tickets.queries';
import { ACCOUNT_LIST_KEY } from '../lib/account-list';
import { useCreditsStore } from '../lib/credits.store';
import { liveRefresh } from '../lib/live-refresh';
import { useServerEvent, useSocketConnection } from '../lib/realtime';
import { useSessionStore } from '../lib/session.store';
import { applyTicketClicks, TICKET_LIST_KEY } from '../lib/ticket-list';

/** After a reconnect, the user's re-read is tried again after these waits while it gets no answer. */
const USER_READ_RETRY_DELAYS_MS = [500, 1_000, 2_000, 4_000];

/**
 * Keeps the socket connected while someone is signed in (the handshake carries the session cookie) and applies the
 * pushes that concern the signed-in user: the balance goes to the credits slice (and is read again on every
 * connection, a push before it having gone nowhere); an ended session (logout elsewhere,
 * ban) re-checks the user, which signs out; every other push updates or reads again the queries it names — a click
 * count changes its one ticket in place, a change of tickets reads the list by changes (lib/ticket-list.ts). A query
 * no page shows is only marked stale, and read when a page shows it again. Disconnects on logout.
 */
export function RealtimeBridge() {
  const client = useQueryClient();
  const refresh = liveRefresh(client);
  const userId = useSessionStore((s) => (s.isAuthenticated ? (s.user?.id ?? null) : null));

  // The re-read of the user the latest connection started (a newer connection starts its own).
  const userRead = useRef<AbortController | null>(null);
  useServerEvent('connect', () => {
    // A push sent before the socket (re)joined its rooms was missed: not only after a reconnect, but also between
    // sign-in and the first connection (this bridge loads lazily, and the handshake takes its time). Re-read the user
    // (its balance) and whatever a page shows (the tickets by changes). A read that gets no answer is tried again (the
    // process that took the socket over may still be starting, a proxy may still try the one that died): else a
    // balance changed meanwhile would stay unshown until the next change.
    userRead.current?.abort();
    userRead.current = new AbortController();
    if (userId) {
      void useAuthStore
        .getState()
        .refreshUser({ retryDelaysMs: USER_READ_RETRY_DELAYS_MS, signal: userRead.current.signal });
    }
    refresh.refresh([]);
  });
  useServerEvent('balance.updated', ({ user_id, balance }) => {
    useCreditsStore.getState().apply(user_id, balance);
  });
  useServerEvent('session.ended', () => {
    void useAuthStore.getState().refreshUser();
  });

  // Admins get the account and ticket pushes of every account (their admin pages follow them).
  useServerEvent('tickets.updated', ({ account_id }) => {
    refresh.refresh(TICKET_LIST_KEY);
    refresh.refresh(ACCOUNT_LIST_KEY);
    refresh.refresh(accountTicketsKey(account_id));
    refresh.refresh(ADMIN_ACCOUNTS_KEY);
    refresh.refresh(DUPLICATE_TICKETS_KEY);
  });
  useServerEvent('account.updated', ({ account_id }) => {
    refresh.refresh(ACCOUNT_LIST_KEY);
    refresh.refresh(TICKET_LIST_KEY);
    refresh.refresh(accountTicketsKey(account_id));
    refresh.refresh(ADMIN_ACCOUNTS_KEY);
  });
  useServerEvent('account.sync', (payload) => {
    useAccountSyncsStore.getState().apply(payload);
    if (payload.state !== 'running') refresh.refresh(ACCOUNT_LIST_KEY);
  });
  // Clicks change counts (and who claimed) in place; a link made or recalled (here or in another tab) reads what
  // changed.
  useServerEvent('distributions.clicked', ({ links }) => applyTicketClicks(client, links));
  useServerEvent('distribution.updated', () => {
    refresh.refresh(TICKET_LIST_KEY);
    refresh.refresh(ACCOUNT_TICKETS_KEY);
  });
  useServerEvent('admin.user.updated', () => refresh.refresh(ADMIN_USERS_KEY));
  useServerEvent('audit.updated', ({ user_id }) => refresh.refresh(auditsKey(user_id)));
  useSocketConnection(userId);

  return null;
}
