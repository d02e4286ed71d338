import { isTransientDatabaseError } from './db/transient-errors.js';
import { isRedisUnavailableError } from './redis/redis-client.js';

/**
 * Whether a failure is a dependency out of reach or too slow for now (the database, Redis), not the fault of the work
 * that met it: the work is tried again (a subscription never parks its event for it), and a request answers 503 with
 * Retry-After.
 */
export function isTransientFailure(err: unknown): boolean {
  return isTransientDatabaseError(err) || isRedisUnavailableError(err);
}
