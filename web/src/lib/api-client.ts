import { buildPath, type ApiRoute, type ErrorResponse, type HttpMethod, type PathParams } from '@seatlink/contracts';
import { askStepUp } from './step-up';

/** Base URL of the API; '' means the same origin as the web app (the server serves web/dist itself). */
export const API_BASE_URL: string = (import.meta.env.VITE_API_URL ?? '').replace(/\/+$/, '');

/**
 * Code given to a request that never got an answer (network failure, CORS, server down).
 * docs/reference.md "Error answers".
 */
export const UNKNOWN_ERROR = 'UNKNOWN_ERROR';
/** A call that needs the user to confirm it is them first (lib/step-up.ts). */
export const STEP_UP_REQUIRED = 'STEP_UP_REQUIRED';

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
  method?: HttpMethod;
  /** Serialised as JSON. */
  body?: unknown;
  /**
   * Send cookies (default true). docs/reference.md "Roles and permissions": every call sends credentials except
   * reset-password.
   */
  withCredentials?: boolean;
  signal?: AbortSignal;
  /**
   * Sent as the `Idempotency-Key` header of a state-changing call: the server runs a request with a given key once
   * and answers a retry with the same key from its memory. A fresh key per user action (newIdempotencyKey), the same
   * key when that action is retried (withRetries).
   */
  idempotencyKey?: string;
  /** Set on the one retry after a step-up (a second STEP_UP_REQUIRED is a refusal). */
  steppedUp?: boolean;
}

/** The JSON request helper every feature API call goes through. Rejects any non-OK response with an {@link ApiError}. */
export async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const { method = 'GET', body, withCredentials = true, signal, idempotencyKey } = options;
  const headers: Record<string, string> = { Accept: 'application/json' };
  // A call without a body sends no Content-Type: Fastify refuses an empty body declared as JSON (400).
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (idempotencyKey) headers['Idempotency-Key'] = idempotencyKey;

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
    // The call needs a fresh proof that it is the user: ask (a code, a passkey or the password), then send it again.
    if (response.status === 403 && code === STEP_UP_REQUIRED && !options.steppedUp) {
      const asked = payload as { method?: unknown; passkey?: unknown } | null;
      const method = asked?.method === 'totp' || asked?.method === 'passkey' ? asked.method : 'password';
      if (await askStepUp(method, message, asked?.passkey === true))
        return request<T>(path, { ...options, steppedUp: true });
    }
    throw new ApiError(message, response.status, code, { body: payload });
  }
  return payload as T;
}

export type QueryValues = Record<string, string | number | readonly string[] | undefined>;

/** `?a=1&b=x&b=y` from query values (undefined left out, lists repeated); '' when nothing is left. */
export function queryString(query: QueryValues): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    if (typeof value === 'object') for (const item of value) search.append(key, item);
    else search.append(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

export type CallOptions<P extends string> = Omit<RequestOptions, 'method'> & {
  /** Query string values; undefined ones are left out, a list is sent as a repeated key (`?status=A&status=B`). */
  query?: QueryValues;
} & ([PathParams<P>] extends [Record<string, never>] ? { params?: undefined } : { params: PathParams<P> });

/**
 * Calls one of the routes defined in `@seatlink/contracts` (`routes.*`): its method and path come from there, the path
 * parameters are filled in and encoded. Every feature's API file goes through this.
 */
export function callApi<T, P extends string = string>(
  route: ApiRoute<P>,
  ...[options]: [PathParams<P>] extends [Record<string, never>] ? [CallOptions<P>?] : [CallOptions<P>]
): Promise<T> {
  const { params, query, ...rest } = (options ?? {}) as CallOptions<P> & { params?: PathParams<P> };
  const path = buildPath(route.path, (params ?? {}) as PathParams<P>) + (query ? queryString(query) : '');
  return request<T>(path, { ...rest, method: route.method });
}

/** The address of a route for the browser itself (a download link), on the API's base URL. */
export function routeUrl<P extends string>(route: ApiRoute<P>, params: PathParams<P>, query: QueryValues = {}): string {
  return `${API_BASE_URL}${buildPath(route.path, params)}${queryString(query)}`;
}

/** A new Idempotency-Key: a random UUID (v4), also where crypto.randomUUID is missing (pages not served over https). */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * Whether a failed call may be sent again as it was (with the same Idempotency-Key): no answer at all, a gateway or
 * overload answer, or the server still running the first attempt of the same key. Refusals (4xx) are final.
 */
export function isRetryable(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  if (error.status === 0) return true;
  if (error.status === 502 || error.status === 503 || error.status === 504) return true;
  return error.status === 409 && error.code === 'IDEMPOTENCY_IN_PROGRESS';
}

/**
 * Runs `attempt`, and again after each delay while it fails with a retryable error ({@link isRetryable}). The caller
 * keeps one Idempotency-Key for all attempts, so a first attempt that did reach the server is not done twice.
 */
export async function withRetries<T>(
  attempt: () => Promise<T>,
  { delaysMs = [500, 1_500], signal }: { delaysMs?: readonly number[]; signal?: AbortSignal } = {},
): Promise<T> {
  for (let i = 0; ; i++) {
    try {
      return await attempt();
    } catch (error) {
      const delay = delaysMs[i];
      if (delay === undefined || !isRetryable(error) || signal?.aborted) throw error;
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
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
