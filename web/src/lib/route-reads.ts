import type { QueryClient } from '@tanstack/react-query';
import type { LoaderFunction } from 'react-router-dom';
import { queryClient } from './query-client';
import { useSessionStore } from './session.store';

/** Resolves once the start-up status check has settled (main.tsx starts it before the router is made). */
function sessionSettled(): Promise<void> {
  return new Promise((resolve) => {
    if (!useSessionStore.getState().loading) return resolve();
    const stop = useSessionStore.subscribe((state) => {
      if (state.loading) return;
      stop();
      resolve();
    });
  });
}

/**
 * A route loader that starts a page's reads with the navigation to it, beside the download of the page's code, instead
 * of once that code has come and the page has rendered (on a phone's network a round trip or more later). It starts
 * them once the visitor is known to be signed in (a visitor who is not goes to /login and reads nothing), in a task of
 * its own (the router runs loaders in the task that made it or started the navigation), and waits for none of them:
 * the page renders as soon as its code is in, its queries finding their reads under way (TanStack Query runs one read
 * per query): a read under way is the one the page's query waits for. One that has answered before the page mounts is
 * read again as the page mounts (the ticket list by what changed since: a small read).
 */
export function readsAhead(start: (client: QueryClient) => void): LoaderFunction {
  return async ({ request }) => {
    await sessionSettled();
    await new Promise((resolve) => setTimeout(resolve, 0));
    // Not for a navigation given up meanwhile (another link followed before this one's page came): no page would show
    // those reads, and the ticket list would be read through to its last page for nothing.
    if (!request.signal.aborted && useSessionStore.getState().isAuthenticated) start(queryClient);
    return null;
  };
}
