import type * as ReactHotToast from 'react-hot-toast';
import { chunkLoader } from './chunk-loader';
import { loadChunk } from './lazy-route';

/**
 * The app's toasts (react-hot-toast), whose code is a chunk of its own (lib/chunk-loader.ts: loaded at the page's first
 * interaction, when the page is first idle (app/toaster.tsx), or at the first toast, and tried again after a failure),
 * not part of the app's entry: its module makes the CSS of its animations as it loads (goober: parsing and a style
 * element), a part of the dashboard's first task on a phone that showed nothing. A toast asked for before the code is
 * in shows as soon as it is.
 */
type HotToast = typeof ReactHotToast;

const load = chunkLoader(() => loadChunk(() => import('react-hot-toast')));
let loaded: HotToast | null = null;
let wanted = false;
const waiting = new Set<() => void>();

/** Loads the toasts' code; the Toaster mounts from then on (whenToastsWanted). */
export function loadToasts(): Promise<HotToast> {
  if (!wanted) {
    wanted = true;
    for (const listener of waiting) listener();
    waiting.clear();
  }
  return load().then((module) => (loaded = module));
}

/** Calls `listener` once the toasts' code is first asked for (at once if it has been); returns a function that stops waiting. */
export function whenToastsWanted(listener: () => void): () => void {
  if (wanted) {
    listener();
    return () => {};
  }
  waiting.add(listener);
  return () => waiting.delete(listener);
}

function show(kind: 'success' | 'error', message: string): void {
  if (loaded) loaded.toast[kind](message);
  // A chunk that cannot be loaded (offline, a deploy that removed it) loses this toast; the next one tries again.
  else
    loadToasts().then(
      (module) => module.toast[kind](message),
      () => undefined,
    );
}

export const toast = {
  success: (message: string) => show('success', message),
  error: (message: string) => show('error', message),
};
