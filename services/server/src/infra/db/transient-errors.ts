import { errorCode, rootCause } from './db-errors.js';

/**
 * Whether an error says the database could not be reached or asked to try again (connection lost, server shutting
 * down, too many connections, serialization failure, deadlock), rather than that this statement is wrong. A transient
 * failure is retried for as long as it lasts; it never makes an event count as poison.
 */
export function isTransientDatabaseError(thrown: unknown): boolean {
  const err = rootCause(thrown);
  if (!(err instanceof Error)) return false;
  const code = errorCode(err);
  if (code !== undefined) {
    // 08: connection exception; 57P: operator intervention (admin shutdown, crash, cannot connect now);
    // 53: insufficient resources; 40001/40P01: serialization failure, deadlock; 55P03: lock not available;
    // 55006: object in use; 57014: statement cancelled (a timeout behind a lock); 25006: read-only (a failover);
    // 25P03: a transaction ended for idling past its bound.
    if (/^(08|57P|53)/.test(code) || ['40001', '40P01', '55P03', '55006', '57014', '25006', '25P03'].includes(code)) {
      return true;
    }
    if (['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH'].includes(code)) {
      return true;
    }
  }
  return /Connection terminated|terminating connection|connection error|timeout exceeded when trying to connect|Query read timeout|Cannot use a pool after calling end|Client was closed/i.test(
    err.message,
  );
}
