import { DrizzleQueryError } from 'drizzle-orm/errors';

/** The error a driver raised, under drizzle's wrapper (which carries the query and its parameters). */
export function rootCause(err: unknown): unknown {
  let current = err;
  for (let depth = 0; depth < 5 && current instanceof DrizzleQueryError && current.cause; depth++) {
    current = current.cause;
  }
  return current;
}

/** The code of an error under drizzle's wrapper: a SQLSTATE (`23505`), or a network error's (`ECONNRESET`). */
export function errorCode(err: unknown): string | undefined {
  const code = (rootCause(err) as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * A message for logs and stored errors that never carries a query's parameters (passwords' hashes, tokens): drizzle's
 * wrapper puts them in its message, so the driver's own message and SQLSTATE are used instead.
 */
export function safeErrorMessage(err: unknown): string {
  const root = rootCause(err);
  if (!(root instanceof Error)) return String(root);
  const code = errorCode(root);
  return code !== undefined && !root.message.includes(code) ? `${root.message} (${code})` : root.message;
}
