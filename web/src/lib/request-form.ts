import { useMutation, type MutationStatus } from '@tanstack/react-query';
import { useCallback } from 'react';
import { errorMessage } from './api-client';

/**
 * A one-call form (docs/reference.md "Screen state", "One-call forms": forgot password, registration, waitlist): idle,
 * loading, then success or error.
 */
export interface RequestFormState {
  loading: boolean;
  error: string | null;
  success: boolean;
  /** The server's message on success, when it sends one. */
  message: string | null;
}

export const IDLE_REQUEST: RequestFormState = { loading: false, error: null, success: false, message: null };

type Answer = { message?: string } | void;

/** The form's state from its mutation's: the failure text is the server's message or `fallback`. */
export function requestFormState(
  mutation: { status: MutationStatus; error: unknown; data: Answer | undefined },
  fallback: string,
): RequestFormState {
  return {
    loading: mutation.status === 'pending',
    error: mutation.status === 'error' ? errorMessage(mutation.error, fallback) : null,
    success: mutation.status === 'success',
    message: mutation.status === 'success' ? (mutation.data?.message ?? null) : null,
  };
}

/**
 * A form's one API call as a TanStack mutation: the state to render, `submit` (the previous error clears as it starts;
 * resolves true on success) and `clearError`. The state lives with the form: every visit starts afresh, and an answer
 * that comes after the form closed goes nowhere.
 */
export function useRequestForm<Payload>(send: (payload: Payload) => Promise<Answer>, fallback: string) {
  const mutation = useMutation({ mutationFn: send });
  const { mutateAsync, reset, status } = mutation;
  const submit = useCallback(
    (payload: Payload) =>
      mutateAsync(payload).then(
        () => true,
        () => false,
      ),
    [mutateAsync],
  );
  const clearError = useCallback(() => {
    if (status === 'error') reset();
  }, [status, reset]);
  return { ...requestFormState(mutation, fallback), submit, clearError };
}
