import { QueryClientProvider } from '@tanstack/react-query';
import { Suspense, use, type ReactNode } from 'react';
import { RouterProvider } from 'react-router-dom';
import { LoadingScreen } from '../components/ui/loading-screen';
import { queryClient } from '../lib/query-client';
import { RealtimeBridge } from './realtime-bridge';
import { router } from './router';
import { AppToaster } from './toaster';

/** Renders its children once the start-up status check has settled. */
function AuthGate({ ready, children }: { ready: Promise<void>; children: ReactNode }) {
  use(ready);
  return children;
}

/**
 * The application root. `authReady` is the status check started before the first render (main.tsx); until it settles
 * the screen reads 'Loading...' (SPEC.md §2). What comes from the API is held by TanStack Query (lib/query-client.ts).
 */
export function App({ authReady }: { authReady: Promise<void> }) {
  return (
    <QueryClientProvider client={queryClient}>
      <Suspense fallback={<LoadingScreen />}>
        <AuthGate ready={authReady}>
          <RouterProvider router={router} />
        </AuthGate>
      </Suspense>
      <RealtimeBridge />
      <AppToaster />
    </QueryClientProvider>
  );
}
