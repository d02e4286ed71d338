import { describe, it } from 'vitest';
import { eventStoreContract } from './event-store.contract.js';
import { KurrentDbEventStore } from './kurrentdb-event-store.js';

// Needs a KurrentDB server, e.g. `docker compose --profile kurrentdb up -d kurrentdb` and
// KURRENTDB_URL=kurrentdb://localhost:2113?tls=false. Every test uses streams of its own, so a shared server is fine.
const url = process.env.KURRENTDB_URL;

if (url) {
  eventStoreContract('KurrentDB adapter', async () => {
    const store = new KurrentDbEventStore(url);
    return { store, dispose: () => store.close() };
  });
} else {
  describe.skip('event store contract: KurrentDB adapter (skipped: set KURRENTDB_URL to run it)', () => {
    it('needs a KurrentDB server', () => {});
  });
}
