import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, use, type ReactNode } from 'react';
import { RouterProvider } from 'react-router-dom';
import { LoadingScreen } from '../components/ui/loading-screen';
import { queryClient } from '../lib/query-client';
import { useSessionStore } from '../lib/session.store';
import { appRouter } from './router';
import { AppToaster } from './toaster';

/** The live updates (socket.io) are for the signed-in only: their code loads once someone is. */
const RealtimeBridge = lazy(() => import('./realtime-bridge').then((m) => ({ default: m.RealtimeBridge })));

function LiveUpdates() {
  const signedIn = useSessionStore((s) => s.isAuthenticated);
  return signedIn ? (
    <Suspense fallback={null}>
      <RealtimeBridge />
    </Suspense>
  ) : null;
}

/** Renders its children once the start-up status check has settled. */
function AuthGate({ ready, children }: { ready: Promise<void>; children: ReactNode }) {
  use(ready);
  return children;
}

/**
 * The application root. `authReady` is the status check started before the first render (main.tsx); until it settles
 * the screen reads 'Loading...' (docs/reference.md "Routing rules"). What comes from the API is held by TanStack Query
 * (lib/query-client.ts). Dates and times are entered and shown en-GB (docs/reference.md "Limits and constants":
 * dd/mm/yyyy, 24-hour) whatever the browser's own locale: each React Aria component sets its locale around itself
 * (components/ui/react-aria/en-gb.tsx).
 */
export function App({ authReady }: { authReady: Promise<void> }) {
  return (
    <QueryClientProvider client={queryClient}>
      <Suspense fallback={<LoadingScreen />}>
        <AuthGate ready={authReady}>
          <RouterProvider router={appRouter()} />
        </AuthGate>
      </Suspense>
      <LiveUpdates />
      <AppToaster />
    </QueryClientProvider>
  );
}
