import { lazy, Suspense, useEffect, useState } from 'react';
import { runWhenIdle } from '../lib/idle-work';
import { loadToasts, whenToastsLoad } from '../lib/toast';

/** Toast timings of SPEC.md §9: blank and error 4 s, success 2 s, loading until dismissed. */
export const TOAST_DURATIONS = { blank: 4_000, error: 4_000, success: 2_000 } as const;

const Toaster = lazy(() => loadToasts().then((module) => ({ default: module.Toaster })));

/**
 * The toasts' place on the page, mounted once their code is loading (lib/toast.ts): when the page is first idle after
 * the app has started, so a toast is not held back by a download, or at the first toast if that comes sooner.
 */
export function AppToaster() {
  const [wanted, setWanted] = useState(false);
  useEffect(() => {
    const stopWaiting = whenToastsLoad(() => setWanted(true));
    const stopIdle = runWhenIdle(() => {
      void loadToasts();
      return true;
    });
    return () => {
      stopWaiting();
      stopIdle();
    };
  }, []);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <Toaster
        position="top-right"
        toastOptions={{
          blank: { duration: TOAST_DURATIONS.blank },
          error: { duration: TOAST_DURATIONS.error },
          success: { duration: TOAST_DURATIONS.success },
          loading: { duration: Infinity },
          className: 'text-sm',
        }}
      />
    </Suspense>
  );
}
