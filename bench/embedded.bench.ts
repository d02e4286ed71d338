/**
 * The embedded default's start, as `npm start` starts it after its build (`services/server/dist/main.js`, no
 * DATABASE_URL, no REDIS_URL: the product runs its own PostgreSQL server under DATA_DIR):
 * - `embedded-restart`: milliseconds from the process's spawn to `/health` answering 200, on a DATA_DIR that holds a
 *   database already (a restart); baseline: the same start with DATABASE_URL (a scratch database on the run's
 *   PostgreSQL, migrated already), in the same round (the order alternates). Goal: ≤ 10 s (10,000 ms). Lower is better: the
 *   ratio is figure ÷ baseline, what the embedded server adds.
 * - `embedded-first-start`: the same from an empty DATA_DIR (the cluster created, migrated and seeded), against the
 *   same baseline. No goal; the README says what a first start costs.
 * Asserts only that every start answered.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterAll, describe, expect, it } from 'vitest';
import { createScratchDatabase, testEnv } from '../services/server/src/testing/test-database.js';
import { exited, freePort, runNode, serverDist, waitForHealth } from '../web/e2e/support/processes.js';
import { entryFromRounds, recordResults } from './results.js';
import { fmt, noteLoadAtStart, printTable, ROUNDS, roundOrder } from './support.js';

type Variant = 'embedded' | 'external';

describe('the embedded default’s start', () => {
  const dirs: string[] = [];
  const drops: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const drop of drops) await drop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  const newDataDir = () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'seatlink-bench-start-'));
    // As root the embedded server runs as the postgres user, which must reach its directory.
    chmodSync(dir, 0o755);
    dirs.push(dir);
    return dir;
  };

  /** Milliseconds from spawn to a healthy answer; the process is stopped (SIGTERM) and waited for afterwards. */
  const start = async (env: NodeJS.ProcessEnv): Promise<number> => {
    const port = await freePort();
    const began = performance.now();
    const server = runNode(
      path.join(serverDist, 'main.js'),
      { ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', SEED_DEMO_WALLETS: 'false', WEB_DIST: '' },
      'start',
    );
    try {
      await waitForHealth(`http://127.0.0.1:${port}`, server.child, 120_000);
      return performance.now() - began;
    } finally {
      server.child.kill('SIGTERM');
      await exited(server.child);
    }
  };

  it('embedded-restart and embedded-first-start, against a start on the run’s PostgreSQL', async () => {
    noteLoadAtStart();
    const base: NodeJS.ProcessEnv = { ...process.env, WALLET_SIM_CONTROL_KEY: randomBytes(24).toString('base64url') };
    delete base.DATABASE_URL;
    delete base.REDIS_URL;
    const external = await createScratchDatabase(testEnv.databaseUrl);
    drops.push(() => external.drop());
    const externalDir = newDataDir();
    const envOf = (variant: Variant, dataDir: string): NodeJS.ProcessEnv =>
      variant === 'external'
        ? { ...base, DATA_DIR: externalDir, DATABASE_URL: external.url }
        : { ...base, DATA_DIR: dataDir };
    // One start of each first: the embedded DATA_DIR and the scratch database both hold the product's data after it.
    const embeddedDir = newDataDir();
    await start(envOf('external', externalDir));
    await start(envOf('embedded', embeddedDir));
    const restarts: Array<{ figure: number; baseline: number }> = [];
    const firsts: Array<{ figure: number; baseline: number }> = [];
    for (let r = 0; r < ROUNDS; r++) {
      const seconds: Partial<Record<Variant | 'first', number>> = {};
      for (const variant of roundOrder(r, ['embedded', 'external', 'first'] as const)) {
        seconds[variant] =
          variant === 'first' ? await start(envOf('embedded', newDataDir())) : await start(envOf(variant, embeddedDir));
      }
      restarts.push({ figure: seconds.embedded!, baseline: seconds.external! });
      firsts.push({ figure: seconds.first!, baseline: seconds.external! });
    }
    expect(restarts).toHaveLength(ROUNDS);
    printTable(
      `The embedded default's start: spawn to /health 200, ${ROUNDS} rounds (the order alternates)`,
      ['round', 'restart s (embedded)', 'first start s (empty DATA_DIR)', 'start s (DATABASE_URL)'],
      restarts.map((x, i) => [
        String(i + 1),
        fmt.fixed(x.figure / 1000, 2),
        fmt.fixed(firsts[i]!.figure / 1000, 2),
        fmt.fixed(x.baseline / 1000, 2),
      ]),
    );
    const units = {
      unit: 'ms',
      baselineUnit: 'ms',
      baselineName: 'the same start with DATABASE_URL (a migrated scratch database on the run’s PostgreSQL)',
    };
    await recordResults([
      entryFromRounds('embedded-restart', units, restarts, { goal: { field: 'figure', atMost: 10_000 } }),
      entryFromRounds('embedded-first-start', units, firsts),
    ]);
  }, 1_800_000);
});
