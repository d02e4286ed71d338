import type { ErrorResponse } from '@seatlink/contracts';

/** Base URL of the API; '' means the same origin as the web app (the server serves web/dist itself). */
export const API_BASE_URL: string = (import.meta.env.VITE_API_URL ?? '').replace(/\/+$/, '');

/** Code given to a request that never got an answer (network failure, CORS, server down). SPEC.md §8. */
export const UNKNOWN_ERROR = 'UNKNOWN_ERROR';

/**
 * A failed API call. `message` is the `message` field of the response body, or '' when the body had none (callers
 * then show their own fallback text through {@link errorMessage}); `code` is the body's `code` when present.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  /** The parsed response body, for calls whose failure carries more than `message` (e.g. verify-email's `error`). */
  readonly body: unknown;

  constructor(message: string, status: number, code?: string, options?: { cause?: unknown; body?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.body = options?.body;
  }
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Serialised as JSON. */
  body?: unknown;
  /** Send cookies (default true). SPEC.md §6: every call sends credentials except reset-password. */
  withCredentials?: boolean;
  signal?: AbortSignal;
}

/** The JSON request helper every feature API call goes through. Rejects any non-OK response with an {@link ApiError}. */
export async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const { method = 'GET', body, withCredentials = true, signal } = options;
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';

  let response: Response;
  try {
    response = await fetch(`${API_BASE_URL}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: withCredentials ? 'include' : 'omit',
      signal,
    });
  } catch (cause) {
    if (signal?.aborted) throw cause;
    throw new ApiError('', 0, UNKNOWN_ERROR, { cause });
  }

  const payload = await readJson(response);
  if (!response.ok) {
    const { message, code } = readError(payload);
    throw new ApiError(message, response.status, code, { body: payload });
  }
  return payload as T;
}

/** The text to show for a failed call: the server's message when it sent one, otherwise the caller's fallback. */
export function errorMessage(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.message ? error.message : fallback;
}

/** The body's `code` when the failure came from the API helper. */
export function errorCode(error: unknown): string | undefined {
  return error instanceof ApiError ? error.code : undefined;
}

async function readJson(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const text = await response.text().catch(() => '');
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function readError(payload: unknown): { message: string; code?: string } {
  if (typeof payload !== 'object' || payload === null) return { message: '' };
  const { message, code } = payload as Partial<Record<keyof ErrorResponse, unknown>>;
  // Validation errors may arrive as a list of messages.
  const text = Array.isArray(message)
    ? message.filter((m): m is string => typeof m === 'string').join(', ')
    : typeof message === 'string'
      ? message
      : '';
  return { message: text, code: typeof code === 'string' ? code : undefined };
}
