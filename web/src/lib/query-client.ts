import { QueryClient } from '@tanstack/react-query';
import { onSessionUserChange } from './session.store';

/**
 * The cache of everything read from the API (TanStack Query). A query is read again when a page that shows it mounts
 * and when a live push names it (app/realtime-bridge.tsx); nothing is read on window focus, and a failed read is not
 * retried on its own (the page offers 'Try again', and the next push reads it anyway).
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, refetchOnWindowFocus: false, refetchOnReconnect: false },
      mutations: { retry: false },
    },
  });
}

/** The application's one cache. It empties when the signed-in user changes: no answer outlives its session. */
export const queryClient = createQueryClient();
onSessionUserChange(() => queryClient.clear());
