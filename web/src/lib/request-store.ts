import { useEffect } from 'react';
import { create, type StoreApi, type UseBoundStore } from 'zustand';
import { errorMessage } from './api-client';

/** A one-call slice (SPEC.md §3/§4: forgot password, registration, waitlist): idle, loading, then success or error. */
export interface RequestState {
  loading: boolean;
  error: string | null;
  success: boolean;
  /** The server's message on success, when it sends one. */
  message: string | null;
}

export interface RequestActions<Payload> {
  /** Sends the call; the previous error clears as it starts. Resolves true on success. */
  submit(payload: Payload): Promise<boolean>;
  /** Back to idle. */
  clear(): void;
  clearError(): void;
}

export type RequestStore<Payload> = RequestState & RequestActions<Payload>;

export const initialRequestState: RequestState = { loading: false, error: null, success: false, message: null };

/**
 * A zustand store around one API call. A call still running when `clear` (or a newer call) comes answers into the
 * void, so a closed form never flips back to an old result. Failure text: the server's message or `fallback`.
 */
export function createRequestStore<Payload>(
  send: (payload: Payload) => Promise<{ message?: string } | void>,
  fallback: string,
) {
  let generation = 0;
  return create<RequestStore<Payload>>()((set, get) => ({
    ...initialRequestState,

    async submit(payload) {
      const current = ++generation;
      set({ loading: true, error: null, success: false, message: null });
      try {
        const answer = await send(payload);
        if (current === generation) set({ loading: false, success: true, message: answer?.message ?? null });
        return true;
      } catch (error) {
        if (current === generation) set({ loading: false, error: errorMessage(error, fallback) });
        return false;
      }
    },

    clear() {
      generation++;
      set({ ...initialRequestState });
    },

    clearError() {
      if (get().error !== null) set({ error: null });
    },
  }));
}

/**
 * A form's use of its request slice: the state to render and the actions. The slice is cleared as the form opens and
 * again as it closes, so every visit starts afresh and leaves nothing behind.
 */
export function useRequestForm<Payload>(useStore: UseBoundStore<StoreApi<RequestStore<Payload>>>) {
  const loading = useStore((s) => s.loading);
  const error = useStore((s) => s.error);
  const success = useStore((s) => s.success);
  const message = useStore((s) => s.message);
  const { submit, clear, clearError } = useStore.getState();

  useEffect(() => {
    clear();
    return clear;
  }, [clear]);

  return { loading, error, success, message, submit, clearError };
}
