import { Toaster } from 'react-hot-toast';

/** Toast timings of SPEC.md §9: blank and error 4 s, success 2 s, loading until dismissed. */
export const TOAST_DURATIONS = { blank: 4_000, error: 4_000, success: 2_000 } as const;

export function AppToaster() {
  return (
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
  );
}
