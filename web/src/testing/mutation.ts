import { MutationObserver } from '@tanstack/react-query';
import { createQueryClient } from '../lib/create-query-client';
import { requestFormState } from '../lib/request-form';

/**
 * A one-call form as useRequestForm runs it, without React: the mutation's observer, and the form's state read from
 * it. `submit` resolves true on success.
 */
export function requestForm<Payload>(
  send: (payload: Payload) => Promise<{ message?: string } | void>,
  fallback: string,
) {
  const observer = new MutationObserver(createQueryClient(), { mutationFn: send });
  return {
    state: () => requestFormState(observer.getCurrentResult(), fallback),
    submit: (payload: Payload) =>
      observer.mutate(payload).then(
        () => true,
        () => false,
      ),
    reset: () => observer.reset(),
  };
}
