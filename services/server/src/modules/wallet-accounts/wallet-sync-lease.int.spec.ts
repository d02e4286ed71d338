import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../infra/db/database.js';
import { createTestDatabase, type TestDatabase } from '../../testing/test-database.js';
import { until } from '../../testing/until.js';
import { HeldLease, leaseLeftMs, releaseLease, SyncLeaseLostError, takeLease } from './wallet-sync-state.js';

/** A short lease for these tests (the product's is LEASE_MS), renewed four times within it. */
const LEASE_MS = 1000;
const RENEW_EVERY_MS = 250;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// The lease a wallet sync holds its account with, kept alive by its holder's timer, on the real database.
describe("a wallet sync's lease, renewed while its sync lives", () => {
  let t: TestDatabase;
  let database: Database;
  const held: HeldLease[] = [];

  const hold = async (accountId: string, renewEveryMs = RENEW_EVERY_MS) => {
    const taken = await takeLease(database, accountId, LEASE_MS);
    expect(taken).not.toBeNull();
    const lease = new HeldLease(database, accountId, taken!.lease, {
      leaseMs: LEASE_MS,
      renewEveryMs,
      onTimerFailure: () => undefined,
    });
    held.push(lease);
    return lease;
  };
  const runningUntil = async (accountId: string) =>
    (
      await database.query<{ running_until: string | null }>(
        'select running_until::text from wallet_sync_state where account_id = $1',
        [accountId],
      )
    )[0]?.running_until ?? null;

  beforeAll(async () => {
    t = await createTestDatabase({ poolSize: 8 });
    database = t.database;
  });
  afterAll(async () => {
    for (const lease of held) await lease.stop();
    await t?.dispose();
  });

  it('stays its holder’s long past its length while the holder lives, and is free once given back', async () => {
    const accountId = randomUUID();
    expect(await leaseLeftMs(database, accountId)).toBeNull();
    const lease = await hold(accountId);
    await sleep(3 * LEASE_MS);
    // Three lease lengths on, nobody else can take it: the timer kept it.
    expect(await takeLease(database, accountId, LEASE_MS)).toBeNull();
    expect(await leaseLeftMs(database, accountId)).toBeGreaterThan(0);
    await releaseLease(database, accountId, await lease.stop(), null, true);
    expect(await leaseLeftMs(database, accountId)).toBeNull();
    expect(await takeLease(database, accountId, LEASE_MS)).not.toBeNull();
  });

  it('is free within its length once its holder stops renewing (died); that holder then renews and frees nothing', async () => {
    const accountId = randomUUID();
    const dead = await hold(accountId);
    const stoppedAt = await dead.stop();
    const other = await until(
      'the lease to run out',
      async () => (await takeLease(database, accountId, LEASE_MS)) ?? undefined,
      5 * LEASE_MS,
    );
    expect(other.lease).not.toBe(stoppedAt);
    // The holder that outlived it: a renewal (a part it would record) is refused, and its release frees nothing.
    await expect(dead.renew()).rejects.toBeInstanceOf(SyncLeaseLostError);
    await releaseLease(database, accountId, stoppedAt, 'late', false);
    expect(await runningUntil(accountId)).toBe(other.lease);
  });

  it('renews one at a time: a part’s renewals beside the timer’s never find the lease lost', async () => {
    const accountId = randomUUID();
    // The timer as often as can be, and twenty renewals asked at once besides.
    const lease = await hold(accountId, 1);
    const renewals = await Promise.allSettled(Array.from({ length: 20 }, () => lease.renew()));
    expect(renewals.filter((r) => r.status === 'rejected')).toEqual([]);
    const last = await lease.stop();
    expect(await runningUntil(accountId)).toBe(last);
    await releaseLease(database, accountId, last, null, true);
    expect(await runningUntil(accountId)).toBeNull();
  });

  it('stops its timer once it finds the lease lost, and every renewal after says so', async () => {
    const accountId = randomUUID();
    let failures = 0;
    const taken = await takeLease(database, accountId, LEASE_MS);
    const lease = new HeldLease(database, accountId, taken!.lease, {
      leaseMs: LEASE_MS,
      renewEveryMs: RENEW_EVERY_MS,
      onTimerFailure: (err) => {
        expect(err).toBeInstanceOf(SyncLeaseLostError);
        failures += 1;
      },
    });
    held.push(lease);
    // Another sync took the account over (its lease ran out while this one's database was away, say).
    await database.query(
      `update wallet_sync_state set running_until = now() + interval '1 hour' where account_id = $1`,
      [accountId],
    );
    await until('the timer to find the lease lost', () => failures > 0, 5 * LEASE_MS);
    await sleep(3 * RENEW_EVERY_MS);
    expect(failures).toBe(1);
    await expect(lease.renew()).rejects.toBeInstanceOf(SyncLeaseLostError);
  });
});
