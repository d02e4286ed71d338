import { openDatabase } from '../db/database.js';
import { createTestDatabase, testEnv } from '../../testing/test-database.js';
import { eventStoreContract } from './event-store.contract.js';
import { SqlEventStore } from './sql-event-store.js';

// On the real PostgreSQL when DATABASE_URL is set (CI always sets it).
if (testEnv.databaseUrl) {
  eventStoreContract('SQL adapter on PostgreSQL', async () => {
    const t = await createTestDatabase();
    return { store: new SqlEventStore(t.database), dispose: t.dispose };
  });
}

// PGlite always runs: it is the embedded default.
eventStoreContract('SQL adapter on PGlite', async () => {
  const database = await openDatabase({});
  await database.migrate();
  return { store: new SqlEventStore(database), dispose: () => database.close() };
});
