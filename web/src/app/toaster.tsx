import { lazy, Suspense, useEffect, useState, type ComponentType } from 'react';
import type { ToasterProps } from 'react-hot-toast';
import { runWhenIdle } from '../lib/idle-work';
import { loadToasts, whenToastsWanted } from '../lib/toast';

/**
 * Toast timings (docs/reference.md "Limits and constants"): blank and error 4 s, success 2 s, loading until dismissed.
 */
export const TOAST_DURATIONS = { blank: 4_000, error: 4_000, success: 2_000 } as const;

// A Toaster whose code cannot be loaded renders nothing rather than failing the page (the toasts are lost, the page
// is not).
const NoToaster = () => null;
const Toaster = lazy((): Promise<{ default: ComponentType<ToasterProps> }> =>
  loadToasts().then(
    (module) => ({ default: module.Toaster }),
    () => ({ default: NoToaster }),
  ),
);

/**
 * The toasts' place on the page, mounted once their code is asked for (lib/toast.ts): when the page is first idle
 * after the app has started, so a toast is not held back by a download, or at the first toast or interaction if that
 * comes sooner.
 */
export function AppToaster() {
  const [wanted, setWanted] = useState(false);
  useEffect(() => {
    const stopWaiting = whenToastsWanted(() => setWanted(true));
    const stopIdle = runWhenIdle(() => {
      loadToasts().catch(() => undefined);
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
