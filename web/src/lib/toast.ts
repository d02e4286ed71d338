import type * as ReactHotToast from 'react-hot-toast';

/**
 * The app's toasts (react-hot-toast), whose code is loaded once the page is first idle (app/toaster.tsx) or at the
 * first toast, not as the app starts: its module makes the CSS of its animations as it loads (goober: parsing and a
 * style element), a part of the dashboard's first task on a phone that showed nothing. A toast asked for before the
 * code is in shows as soon as it is.
 */
type HotToast = typeof ReactHotToast;

let loaded: HotToast | null = null;
let loading: Promise<HotToast> | null = null;
const waiting = new Set<() => void>();

export function loadToasts(): Promise<HotToast> {
  if (!loading) {
    loading = import('react-hot-toast').then((module) => (loaded = module));
    for (const listener of waiting) listener();
    waiting.clear();
  }
  return loading;
}

/** Calls `listener` once the toasts' code starts loading (at once if it has); returns a function that stops waiting. */
export function whenToastsLoad(listener: () => void): () => void {
  if (loading) {
    listener();
    return () => {};
  }
  waiting.add(listener);
  return () => waiting.delete(listener);
}

function show(kind: 'success' | 'error', message: string): void {
  if (loaded) loaded.toast[kind](message);
  else void loadToasts().then((module) => module.toast[kind](message));
}

export const toast = {
  success: (message: string) => show('success', message),
  error: (message: string) => show('error', message),
};
