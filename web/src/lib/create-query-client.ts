import { QueryClient } from '@tanstack/react-query';

/**
 * A cache of what is read from the API (TanStack Query). A query is read again when a page that shows it mounts and
 * when a live push names it (app/realtime-bridge.tsx); nothing is read on window focus, and a failed read is not
 * retried on its own (the page offers 'Try again', and the next push reads it anyway). A file of its own so that the
 * link page's entry (link-main.tsx) gets the same settings without the session store the app's cache follows.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, refetchOnWindowFocus: false, refetchOnReconnect: false },
      mutations: { retry: false },
    },
  });
}
