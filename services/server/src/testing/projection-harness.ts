import { sql } from 'drizzle-orm';
import { afterAll, beforeAll } from 'vitest';
import { queryRows, type Database } from '../infra/db/database.js';
import type { EventStore } from '../infra/event-store/event-store.port.js';
import { SqlEventStore } from '../infra/event-store/sql-event-store.js';
import { SubscriptionHost } from '../infra/subscriptions/subscription-host.js';
import { SubscriptionOperations } from '../infra/subscriptions/subscription-operations.js';
import type { Subscription } from '../infra/subscriptions/subscription.js';
import type { TestDatabase } from './test-database.js';

/**
 * For the specs of projections that apply their events inside the database: a database of their own (opened before
 * the suite's tests, disposed after), its event store, the same store without its database functions (every page
 * through `apply`), the warnings the runners log, and a rebuild of some projections from the whole feed. Call it in a
 * `describe`; its fields are set once the suite has begun.
 */
export function projectionHarness(open: () => Promise<TestDatabase>) {
  const harness = {
    database: null as unknown as Database,
    store: null as unknown as SqlEventStore,
    inProcess: null as unknown as EventStore,
    warnings: [] as string[],
    logger: {
      log: () => undefined,
      warn: (m: string) => harness.warnings.push(m),
      error: () => undefined,
    },
    /** Empties the projections' tables and applies the whole feed to them again, in pages of `batchSize`. */
    rebuild: async (projections: Subscription[], from: EventStore, batchSize: number) => {
      const names = projections.map((p) => p.name);
      await new SubscriptionOperations(harness.database, harness.store, () => projections).reset(names);
      await new SubscriptionHost(harness.database, from, projections, { batchSize, logger: harness.logger }).drain({
        names,
      });
    },
    /** The events parked, by subscription and id. */
    parked: () =>
      queryRows<{ subscription: string; event_id: string }>(
        harness.database.db,
        sql`select subscription, event_id from parked_events where status = 'parked' order by subscription, event_id`,
      ),
  };
  let dispose: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const opened = await open();
    dispose = opened.dispose;
    harness.database = opened.database;
    harness.store = new SqlEventStore(harness.database);
    harness.inProcess = Object.assign(Object.create(harness.store) as EventStore, { applyInDatabase: undefined });
  });
  afterAll(async () => dispose?.());
  return harness;
}
