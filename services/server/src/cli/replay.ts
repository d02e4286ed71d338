import { loadConfig } from '../infra/config/config.js';
import { createContext } from '../bootstrap.js';
import { DATABASE } from '../infra/db/database.module.js';
import type { Database } from '../infra/db/database.js';
import { EVENT_STORE, type EventStore } from '../infra/event-store/event-store.port.js';
import { readCheckpoints } from '../infra/subscriptions/checkpoints.js';
import { SubscriptionHost, SUBSCRIPTIONS_LOCK_KEY } from '../infra/subscriptions/subscription-host.js';
import { SubscriptionOperations } from '../infra/subscriptions/subscription-operations.js';
import { SubscriptionRegistry } from '../infra/subscriptions/subscriptions.module.js';

/**
 * `npm run replay [-- <read model> ...] [--timeout=<seconds>]`: empties the read models (all by default) and rebuilds
 * them from the events, printing progress. When no other process runs the subscriptions, this one rebuilds them; when
 * one does (the worker, `npm start`), it rebuilds them live and this command follows its progress. Gives up, with
 * exit code 2, after the timeout (default one hour).
 */
const args = process.argv.slice(2);
const timeoutArg = args.find((a) => a.startsWith('--timeout='));
const timeoutMs = (timeoutArg ? Number(timeoutArg.slice('--timeout='.length)) : 3600) * 1000;
const wanted = args.filter((a) => !a.startsWith('--'));

const app = await createContext(loadConfig(), 'cli');
const database = app.get<Database>(DATABASE);
const store = app.get<EventStore>(EVENT_STORE);
const projections = app.get(SubscriptionRegistry).projections();
const names = wanted.length > 0 ? wanted : projections.map((p) => p.name);
const unknown = names.filter((n) => !projections.some((p) => p.name === n));
if (!Number.isFinite(timeoutMs) || timeoutMs <= 0 || unknown.length > 0) {
  console.error(
    unknown.length > 0
      ? `No read model named ${unknown.join(', ')}. Read models: ${projections.map((p) => p.name).join(', ')}`
      : '--timeout must be a number of seconds',
  );
  await app.close();
  process.exit(1);
}

const started = Date.now();
let lastPrint = 0;
const progress = (applied: number, force = false) => {
  if (!force && Date.now() - lastPrint < 1000) return;
  lastPrint = Date.now();
  const seconds = (Date.now() - started) / 1000;
  console.log(
    `  ${applied.toLocaleString('en-US')} events applied, all read models together (${Math.round(applied / Math.max(seconds, 0.001)).toLocaleString('en-US')}/s)`,
  );
};

await app.get(SubscriptionOperations).reset(names);
console.log(`Emptied ${names.join(', ')}; rebuilding from the events`);
let exitCode = 0;
const lock = await database.tryAdvisoryLock(SUBSCRIPTIONS_LOCK_KEY);
try {
  if (lock) {
    const host = new SubscriptionHost(
      database,
      store,
      projections.filter((p) => names.includes(p.name)),
      { batchSize: 2000 },
    );
    const applied = await host.drain({ names, deadlineMs: timeoutMs, onProgress: progress });
    progress(applied, true);
  } else {
    console.log('Another process runs the subscriptions: it rebuilds them now; following its progress');
    const target = await store.headPosition();
    for (;;) {
      const checkpoints = await readCheckpoints(database);
      const behind = names.filter((n) => {
        const at = checkpoints.get(n) ?? null;
        return target !== null && (at === null || store.comparePositions(at, target) < 0);
      });
      if (behind.length === 0) break;
      if (Date.now() - started > timeoutMs) throw new Error(`Timed out; still rebuilding ${behind.join(', ')}`);
      if (Date.now() - lastPrint >= 1000) {
        lastPrint = Date.now();
        console.log(`  still rebuilding ${behind.join(', ')}`);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  console.log(`Rebuilt ${names.length} read model(s) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
} catch (err) {
  console.error(String(err instanceof Error ? err.message : err));
  exitCode = 2;
} finally {
  await lock?.release();
  await app.close();
}
process.exit(exitCode);
