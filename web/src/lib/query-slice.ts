import type { FetchStatus } from '@tanstack/react-query';
import { errorMessage } from './api-client';

/** What a query holds now: its answer, its last failure, whether a read runs (a useQuery result, or a cache entry). */
export interface QueryStateLike<T> {
  data: T | undefined;
  error: unknown;
  fetchStatus: FetchStatus;
}

export interface QuerySlice<T> {
  data: T | undefined;
  /** A read is under way (the first, or a refresh). */
  loading: boolean;
  /** An answer has arrived (an empty list then means none, not "not loaded yet"). */
  loaded: boolean;
  /** The server's message or `fallback` while there is no answer to show; null otherwise. */
  error: string | null;
}

/**
 * A page's view of a query as the screen state has it (data, loading, error: docs/reference.md "Screen state"). A
 * failed re-read keeps the answer shown (it is only out of date), so the error is for a page that has nothing to show.
 */
export function querySlice<T>({ data, error, fetchStatus }: QueryStateLike<T>, fallback: string): QuerySlice<T> {
  const loaded = data !== undefined;
  return {
    data,
    loading: fetchStatus === 'fetching',
    loaded,
    error: !loaded && error ? errorMessage(error, fallback) : null,
  };
}
