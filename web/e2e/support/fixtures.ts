import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type * as DatabaseModuleNs from '../../../services/server/src/infra/db/database.js';
import type * as EventStoreModuleNs from '../../../services/server/src/infra/event-store/sql-event-store.js';

type DatabaseModule = typeof DatabaseModuleNs;
type EventStoreModule = typeof EventStoreModuleNs;

/** Invite codes the browser tests need that the admin UI cannot make (the UI refuses a past expiry). */
export const FIXTURE_INVITES = { expired: 'E2EEXPIRED1' } as const;

/**
 * Writes fixture events straight through the server's own event store, before the server starts. The server projects
 * them like any other event.
 */
export async function writeFixtures(dist: string, databaseUrl: string) {
  // The built server (what the stack under test runs), typed by its sources.
  const { openDatabase } = (await import(path.join(dist, 'infra/db/database.js'))) as DatabaseModule;
  const { SqlEventStore } = (await import(path.join(dist, 'infra/event-store/sql-event-store.js'))) as EventStoreModule;
  const database = await openDatabase({ url: databaseUrl });
  try {
    await database.migrate();
    const store = new SqlEventStore(database);
    const created = new Date(Date.now() - 3 * 86_400_000).toISOString();
    await store.appendToStream(
      `invite-${FIXTURE_INVITES.expired}`,
      [
        {
          id: randomUUID(),
          type: 'InviteCodeCreated',
          data: {
            inviteId: randomUUID(),
            code: FIXTURE_INVITES.expired,
            maxUses: 100,
            expiresAt: new Date(Date.now() - 86_400_000).toISOString(),
            createdBy: 'e2e-fixture',
            at: created,
          },
          metadata: { actorId: 'e2e-fixture' },
        },
      ],
      { expectedRevision: 'no_stream' },
    );
  } finally {
    await database.close();
  }
}
