import { create } from 'zustand';
import { ApiError, errorMessage } from './api-client';
import { onSessionUserChange } from './session.store';

/**
 * What a page reads from one GET call: the answer, the call's state, and what it was asked for (`param`, e.g. an
 * account id), so a page never shows the answer for another one.
 */
export interface ResourceState<T, P> {
  data: T | null;
  /** What `data` (or the error) answers. */
  param: P | null;
  /** A load the page waits for is under way (not set by a silent refresh). */
  loading: boolean;
  /** The server's message or the fallback; null when the last load succeeded. */
  error: string | null;
  /** The HTTP status of the last failure (404: not found), 0 for no answer at all. */
  errorStatus: number | null;
}

export interface ResourceActions<P> {
  /**
   * Loads `param`. `silent` (a live refresh) keeps what is on screen while it loads, and a failed silent refresh
   * keeps it too (it is only out of date).
   */
  fetch(param: P, options?: { silent?: boolean }): Promise<void>;
  reset(): void;
}

export type ResourceStore<T, P> = ResourceState<T, P> & ResourceActions<P>;

/**
 * A zustand store around one GET call. Only the answer to the latest call is applied (a slow earlier answer never
 * overwrites a later one); the store empties when the signed-in user changes.
 */
export function createResourceStore<T, P = void>(load: (param: P) => Promise<T>, fallback: string) {
  const initial: ResourceState<T, P> = { data: null, param: null, loading: false, error: null, errorStatus: null };
  let latest = 0;
  const store = create<ResourceStore<T, P>>()((set, get) => ({
    ...initial,

    async fetch(param, { silent = false } = {}) {
      const request = ++latest;
      const same = get().param === param;
      if (!silent || !same)
        set({ loading: true, error: null, errorStatus: null, param, ...(same ? {} : { data: null }) });
      try {
        const data = await load(param);
        if (request === latest) set({ data, param, loading: false, error: null, errorStatus: null });
      } catch (error) {
        if (request !== latest) return;
        // What is on screen stays through a failed refresh (it is only out of date), unless it is gone (404).
        const gone = error instanceof ApiError && error.status === 404;
        if (silent && same && get().data !== null && !gone) {
          set({ loading: false });
          return;
        }
        set({
          loading: false,
          data: null,
          error: errorMessage(error, fallback),
          errorStatus: error instanceof ApiError ? error.status : 0,
          param,
        });
      }
    },

    reset() {
      latest++;
      set({ ...initial });
    },
  }));
  onSessionUserChange(() => store.getState().reset());
  return store;
}
