import { vi } from 'vitest';

export interface StubbedCall {
  url: string;
  method: string;
  body: unknown;
  credentials: RequestCredentials | undefined;
  /** The request's headers (not enumerable, so tests comparing whole calls need not list them). */
  readonly headers: Record<string, string>;
}

/** An answer (held back until `after` settles, when given), or an Error thrown as a network failure. */
type Reply = { status: number; body?: unknown; after?: Promise<unknown> } | Error;

/**
 * Replaces global fetch with a stub answering the given replies in order (an Error is thrown as a network failure)
 * and records every call.
 */
export function stubFetch(...replies: Reply[]): StubbedCall[] {
  const calls: StubbedCall[] = [];
  const queue = [...replies];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string | URL | Request, init?: RequestInit) => {
      const call = {
        url: String(input),
        method: init?.method ?? 'GET',
        body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
        credentials: init?.credentials,
      } as StubbedCall;
      Object.defineProperty(call, 'headers', { value: { ...(init?.headers as Record<string, string>) } });
      calls.push(call);
      const reply = queue.shift();
      if (!reply) throw new Error(`Unexpected fetch ${String(input)}`);
      if (reply instanceof Error) throw reply;
      if (reply.after) await reply.after;
      const text = reply.body === undefined ? null : JSON.stringify(reply.body);
      return new Response(text, {
        status: reply.status,
        headers: text ? { 'Content-Type': 'application/json' } : undefined,
      });
    }),
  );
  return calls;
}
