import type { Database } from '../infra/db/database.js';
import { hashToken } from '../modules/identity/sessions.service.js';
import type { ApiClient } from './test-app.js';

/**
 * Makes the client's session look signed in 20 minutes ago with no confirmation since: past a STEP_UP_MINUTES of 10,
 * the next call that needs a fresh proof asks for one.
 */
export async function ageSession(database: Database, client: ApiClient): Promise<void> {
  await database.query(
    `update sessions set created_at = now() - interval '20 minutes', verified_at = null where token_hash = $1`,
    [hashToken(client.sessionCookie.split('=')[1]!)],
  );
}
