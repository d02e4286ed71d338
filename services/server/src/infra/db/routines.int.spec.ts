import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testBackends } from '../../testing/test-database.js';
import { type Database, openDatabase } from './database.js';
import { MODULE_ROUTINES } from '../../routines.js';
import { eventStoreRoutines } from '../event-store/event-store.routines.js';
import { subscriptionRoutines } from '../subscriptions/subscription.routines.js';
import { readModelVersionRoutines } from './read-model-versions.routines.js';

const ROUTINES = [...eventStoreRoutines, ...subscriptionRoutines, ...readModelVersionRoutines, ...MODULE_ROUTINES];

/**
 * The functions the product runs in the database are the ones in its source (each module's `*.routines.ts`), not
 * whatever the migrations last wrote: a migrated database has exactly those, defined as the source defines them.
 */
const backends = testBackends().map(([name, embedded]) => [name, () => createTestDatabase({ embedded })] as const);

describe.each(backends)('the database functions (%s)', (_name, open) => {
  let database: Database;
  let url: string;
  let dispose: () => Promise<void>;
  beforeAll(async () => {
    ({ database, url, dispose } = await open());
  });
  afterAll(async () => dispose?.());

  /** Every seatlink_ function of the database, with its whole definition as the server prints it. */
  const definitions = async () =>
    database.query<{ name: string; definition: string }>(
      `select p.proname as name, pg_get_functiondef(p.oid) as definition
       from pg_proc p join pg_namespace n on n.oid = p.pronamespace
       where n.nspname = current_schema() and p.proname like 'seatlink\\_%'
       order by p.proname, p.oid`,
    );

  it('are the routines of the source, each once, defined as the source defines them', async () => {
    const migrated = await definitions();
    expect(migrated.map((f) => f.name)).toEqual(ROUTINES.map((r) => r.name).sort());
    // Applied once more from the source, none changes: the database already had the source's definitions.
    for (const routine of ROUTINES) await database.query(routine.sql);
    expect(await definitions()).toEqual(migrated);
  });

  it('are applied by processes that migrate at once, one after the other', async () => {
    const processes = await Promise.all(
      [1, 2, 3].map(() => openDatabase({ url, poolSize: 2, routines: MODULE_ROUTINES })),
    );
    try {
      await Promise.all(processes.map((p) => p.migrate()));
    } finally {
      await Promise.all(processes.map((p) => p.close()));
    }
    expect((await definitions()).map((f) => f.name)).toEqual(ROUTINES.map((r) => r.name).sort());
  });
});
