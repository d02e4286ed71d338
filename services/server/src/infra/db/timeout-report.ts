import { Logger } from '@nestjs/common';
import { throttledWarning } from '../../shared/throttled-warning.js';
import { errorCode, rootCause, safeErrorMessage } from './db-errors.js';

/**
 * A statement that ended on one of the application's bounds (DB_*_TIMEOUT_MS): a lock waited for too long (55P03), a
 * statement run too long or cancelled (57014), a transaction left idle (25P03), or no answer at all from the server
 * (the client's backstop). Each is logged with what held the database at that moment, so a stuck turn says who held
 * it; at most one such line per kind every ten seconds (a pile-up behind one lock is one story).
 */
const TIMEOUT_CODES: Record<string, string> = {
  '55P03': 'a lock waited for past DB_LOCK_TIMEOUT_MS',
  '57014': 'a statement ran past DB_STATEMENT_TIMEOUT_MS (or was cancelled)',
  '25P03': 'a transaction idle past DB_IDLE_IN_TRANSACTION_TIMEOUT_MS was ended',
};

const logger = new Logger('Database');

/**
 * Says what holds the database now (Database.describeBusy), and reports at most one line per kind each ten seconds;
 * set by the process's database when it opens.
 */
let reporter: { describeBusy: () => Promise<string>; warn: (key: string, message: string) => void } | null = null;

export function setBusyDescriber(describeBusy: () => Promise<string>): void {
  reporter = { describeBusy, warn: throttledWarning((message) => logger.warn(message)) };
}

/** Which bound an error is, or null for any other error. */
export function timeoutKind(err: unknown): string | null {
  const code = errorCode(err);
  if (code && TIMEOUT_CODES[code]) return TIMEOUT_CODES[code];
  const root = rootCause(err);
  if (root instanceof Error && /Query read timeout|timeout exceeded when trying to connect/.test(root.message)) {
    return 'the server did not answer within the statement bound (or a connection within DB_CONNECT_TIMEOUT_MS)';
  }
  return null;
}

/** Logs a timed-out statement with what held the database (`where`: the request or work that met it). */
export function reportIfTimeout(err: unknown, where: string): void {
  const kind = timeoutKind(err);
  const report = reporter;
  if (kind === null || report === null) return;
  void (async () => {
    const busy = await report.describeBusy().catch((e: unknown) => `(not known: ${safeErrorMessage(e)})`);
    report.warn(kind, `${where}: ${kind} (${safeErrorMessage(err)}); held by: ${busy || 'no open transaction now'}`);
  })();
}
